"use client";

import type { LucideIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";
import { toast } from "sonner";
import { Button } from "../ui/button";
import { Dialog, DialogContent, DialogTrigger } from "../ui/dialog";
import { useErrorText } from "./error-message";

/** What the dialog needs of a TanStack mutation; a create's and an update's both fit. */
type Submission<TInput, TResult> = {
  mutate: (input: TInput, options: { onSuccess: (result: TResult) => void; onError: (error: unknown) => void }) => void;
  isPending: boolean;
  error: unknown;
  reset: () => void;
};

type FormDialogProps<TInput, TResult> = {
  /** The dialog's title, and the trigger button's label unless `trigger` names one. */
  title: string;
  icon: LucideIcon;
  /** The trigger's own label (default: the title) and size. */
  trigger?: { label?: string; size?: "sm" };
  /** Edits something that exists: a secondary trigger, and Save instead of Create. */
  editing?: boolean;
  /** Why the viewer may not: the trigger is disabled with it as its tooltip (the server refuses anyway). */
  disabledReason?: string | null;
  description?: string;
  className?: string;
  mutation: Submission<TInput, TResult>;
  /** What to send, or null when the form's own checks refused it (the fields then say why). */
  toInput: () => TInput | null;
  /** Whether the fields hold enough to submit. */
  ready: boolean;
  /** The toast once it is created. */
  successText: (result: TResult) => string;
  /** Called after success; with `keepOpenOnSuccess`, the caller then sets `shown` to what to show. */
  onSuccess?: (result: TResult) => void;
  keepOpenOnSuccess?: boolean | ((result: TResult) => boolean);
  /** Shown instead of the form while set (e.g. a secret revealed once); `close` ends the dialog. */
  shown?: { title: string; body: (close: () => void) => ReactNode } | null;
  /** Clears the caller's fields when the dialog closes, however it is closed. */
  onClosed: () => void;
  /** Fills the caller's fields as the dialog opens (an edit dialog's current values). */
  onOpened?: () => void;
  /** The fields. */
  children: ReactNode;
};

/**
 * A create or edit dialog: trigger button, form, the server's refusal in words (inline and as a
 * toast), cancel and submit, a success toast, and everything cleared on close.
 */
export function FormDialog<TInput, TResult>(props: FormDialogProps<TInput, TResult>) {
  const { title, icon: Icon, mutation, shown, trigger, editing } = props;
  const common = useTranslations("common");
  const errorText = useErrorText();
  const [open, setOpen] = useState(false);
  const change = (next: boolean) => {
    setOpen(next);
    if (next) props.onOpened?.();
    else props.onClosed();
    mutation.reset();
  };
  const close = () => change(false);
  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogTrigger asChild>
        <Button variant={editing ? "secondary" : "primary"} size={trigger?.size} disabled={!!props.disabledReason} title={props.disabledReason ?? undefined}>
          <Icon aria-hidden className={trigger?.size === "sm" ? "h-3.5 w-3.5" : "h-4 w-4"} />
          {trigger?.label ?? title}
        </Button>
      </DialogTrigger>
      {shown ? (
        <DialogContent title={shown.title} closeLabel={common("close")} className={props.className}>
          {shown.body(close)}
        </DialogContent>
      ) : (
        <DialogContent title={title} description={props.description} closeLabel={common("close")} className={props.className}>
          <form
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              const input = props.toInput();
              if (input === null) return;
              mutation.mutate(input, {
                onSuccess: (result) => {
                  toast.success(props.successText(result));
                  props.onSuccess?.(result);
                  const keep = props.keepOpenOnSuccess;
                  if (!(typeof keep === "function" ? keep(result) : keep)) close();
                },
                onError: (error) => toast.error(errorText(error)),
              });
            }}
          >
            {props.children}
            {mutation.error ? (
              <p role="alert" className="text-sm text-danger">
                {errorText(mutation.error)}
              </p>
            ) : null}
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={close}>
                {common("cancel")}
              </Button>
              <Button type="submit" disabled={mutation.isPending || !props.ready}>
                {mutation.isPending ? (editing ? common("saving") : common("creating")) : editing ? common("save") : common("create")}
              </Button>
            </div>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
