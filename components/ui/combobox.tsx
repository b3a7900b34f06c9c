"use client";

import * as Popover from "@radix-ui/react-popover";
import { Command } from "cmdk";
import { Check, ChevronsUpDown } from "lucide-react";
import { useRef, useState } from "react";
import { cn } from "./cn";

export type ComboboxOption = {
  value: string;
  label: string;
  /** A second, quieter line: a uid, a URL, the consumer it belongs to. */
  detail?: string;
  /** Shown on hover: the full URL, the id. */
  title?: string;
};

// cmdk takes an item's text as its value when the value is empty; the "any" choice needs one of its own.
const NONE = "__none__";

/**
 * A searchable choice. A button shows what is chosen; it opens (click, Enter, Space, the arrow keys,
 * or by typing) a popover with a search box over the options: the arrow keys move, Enter picks,
 * Escape closes and focus returns to the button. The options are the caller's, searched as the
 * caller likes (`onSearch`: a server query, say) and shown as given. Radix's Popover gives the
 * focus handling and dismissal, cmdk the combobox and listbox roles with aria-activedescendant.
 */
export function Combobox({
  id,
  labelledBy,
  value,
  selected,
  options,
  search,
  onSearch,
  onChange,
  onOpenChange,
  loading,
  placeholder,
  searchLabel,
  emptyText,
  loadingText,
  none,
  disabled,
  className,
}: {
  id: string;
  /** The id of the visible label: the button reads as that label and then what is chosen. */
  labelledBy: string;
  value: string;
  /** What the button shows for `value` (it may not be among the options searched for now). */
  selected: { label: string; detail?: string; title?: string } | null;
  options: ComboboxOption[];
  search: string;
  onSearch: (search: string) => void;
  onChange: (value: string) => void;
  onOpenChange?: (open: boolean) => void;
  loading?: boolean;
  placeholder: string;
  searchLabel: string;
  emptyText: string;
  loadingText: string;
  /** A first choice that clears the value ("All consumers"); absent where a choice is required. */
  none?: string;
  disabled?: boolean;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const showNone = none !== undefined && !search;
  // The highlighted option: the one the reader moved to while it is shown, else the first shown, so
  // Enter after typing picks the best match even when the results arrive after the keystrokes.
  const highlighted = options.some((o) => o.value === active) || (showNone && active === NONE) ? active : showNone ? NONE : (options[0]?.value ?? "");
  const toggle = (next: boolean) => {
    if (next) setActive(value || NONE);
    setOpen(next);
    onOpenChange?.(next);
    if (!next) onSearch("");
  };
  const pick = (next: string) => {
    onChange(next);
    toggle(false);
  };
  const item = "flex cursor-default items-start gap-2 rounded px-2 py-1.5 outline-none select-none data-[selected=true]:bg-muted";
  return (
    <Popover.Root open={open} onOpenChange={toggle}>
      <Popover.Trigger asChild>
        <button
          id={id}
          type="button"
          disabled={disabled}
          aria-labelledby={`${labelledBy} ${id}-value`}
          title={selected?.title}
          onKeyDown={(event) => {
            if (open || event.ctrlKey || event.metaKey || event.altKey) return;
            if (event.key === "ArrowDown" || event.key === "ArrowUp") {
              event.preventDefault();
              toggle(true);
            } else if (event.key.length === 1 && event.key !== " ") {
              // Typing on the closed button starts the search with what was typed.
              event.preventDefault();
              toggle(true);
              onSearch(event.key);
            }
          }}
          className={cn(
            "flex h-9 w-full min-w-0 items-center gap-2 rounded-md border border-border bg-surface px-3 text-left text-sm",
            "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:opacity-50",
            className,
          )}
        >
          <span id={`${id}-value`} className={cn("min-w-0 flex-1 truncate", !selected && "text-muted-foreground")}>
            {selected ? (
              <>
                {selected.label}
                {selected.detail ? <span className="ml-1.5 text-xs text-muted-foreground">{selected.detail}</span> : null}
              </>
            ) : (
              placeholder
            )}
          </span>
          <ChevronsUpDown aria-hidden className="h-4 w-4 shrink-0 text-muted-foreground" />
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          onOpenAutoFocus={(event) => {
            // Into the search box, after what may already have been typed on the button.
            event.preventDefault();
            const box = input.current;
            box?.focus();
            box?.setSelectionRange(box.value.length, box.value.length);
          }}
          className="z-50 w-[var(--radix-popover-trigger-width)] min-w-72 rounded-md border border-border bg-surface text-sm shadow-lg"
        >
          <Command shouldFilter={false} loop label={searchLabel} value={highlighted} onValueChange={setActive}>
            <Command.Input
              ref={input}
              value={search}
              onValueChange={onSearch}
              placeholder={searchLabel}
              className="h-9 w-full border-b border-border bg-transparent px-3 text-sm outline-none placeholder:text-muted-foreground"
            />
            <Command.List className="max-h-72 overflow-y-auto p-1">
              {loading ? <Command.Loading className="px-2 py-1.5 text-muted-foreground">{loadingText}</Command.Loading> : null}
              {!loading && options.length === 0 ? <div className="px-2 py-1.5 text-muted-foreground">{emptyText}</div> : null}
              {showNone ? (
                <Command.Item value={NONE} onSelect={() => pick("")} className={item}>
                  <Check aria-hidden className={cn("mt-0.5 h-4 w-4 shrink-0", value ? "invisible" : "text-primary")} />
                  <span className="text-muted-foreground">{none}</span>
                </Command.Item>
              ) : null}
              {options.map((option) => (
                <Command.Item key={option.value} value={option.value} onSelect={() => pick(option.value)} title={option.title} className={item}>
                  <Check aria-hidden className={cn("mt-0.5 h-4 w-4 shrink-0", option.value === value ? "text-primary" : "invisible")} />
                  <span className="min-w-0">
                    <span className="block truncate">{option.label}</span>
                    {option.detail ? <span className="block truncate text-xs text-muted-foreground">{option.detail}</span> : null}
                  </span>
                </Command.Item>
              ))}
            </Command.List>
          </Command>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
