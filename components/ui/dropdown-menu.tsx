"use client";

import * as Menu from "@radix-ui/react-dropdown-menu";
import type { ComponentProps } from "react";
import { cn } from "./cn";

export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;
export const DropdownMenuRadioGroup = Menu.RadioGroup;

export function DropdownMenuContent({ className, ...props }: ComponentProps<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content
        sideOffset={6}
        className={cn("z-50 min-w-48 rounded-md border border-border bg-surface p-1 text-sm shadow-lg", className)}
        {...props}
      />
    </Menu.Portal>
  );
}

const ITEM = "flex cursor-default items-center gap-2 rounded px-2 py-1.5 outline-none select-none data-[highlighted]:bg-muted";

export function DropdownMenuItem({ className, ...props }: ComponentProps<typeof Menu.Item>) {
  return <Menu.Item className={cn(ITEM, className)} {...props} />;
}

export function DropdownMenuRadioItem({ className, children, ...props }: ComponentProps<typeof Menu.RadioItem>) {
  return (
    <Menu.RadioItem className={cn(ITEM, "pl-7 relative", className)} {...props}>
      <Menu.ItemIndicator className="absolute left-2 text-primary">●</Menu.ItemIndicator>
      {children}
    </Menu.RadioItem>
  );
}
