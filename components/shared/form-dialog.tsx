"use client";

import type { UseMutationResult } from "@tanstack/react-query";
import type { LucideIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";
import { toast } from "sonner";
import { Button } from "../ui/button";
import { Dialog, DialogContent, DialogTrigger } from "../ui/dialog";
import { useErrorText } from "./error-message";

type FormDialogProps<TInput, TResult> = {
  /** The trigger button's label and the dialog's title. */
  title: string;
  icon: LucideIcon;
  description?: string;
  className?: string;
  mutation: UseMutationResult<TResult, unknown, TInput>;
  /** What to send, or null when the form's own checks refused it (the fields then say why). */
  toInput: () => TInput | null;
  /** Whether the fields hold enough to submit. */
  ready: boolean;
  /** The toast once it is created. */
  successText: (result: TResult) => string;
  /** Called after success; with `keepOpenOnSuccess`, the caller then sets `shown` to what to show. */
  onSuccess?: (result: TResult) => void;
  keepOpenOnSuccess?: boolean;
  /** Shown instead of the form while set (e.g. a secret revealed once); `close` ends the dialog. */
  shown?: { title: string; body: (close: () => void) => ReactNode } | null;
  /** Clears the caller's fields when the dialog closes, however it is closed. */
  onClosed: () => void;
  /** The fields. */
  children: ReactNode;
};

/**
 * A "create" dialog: trigger button, form, the server's refusal in words (inline and as a toast),
 * cancel and submit, a success toast, and everything cleared on close.
 */
export function FormDialog<TInput, TResult>(props: FormDialogProps<TInput, TResult>) {
  const { title, icon: Icon, mutation, shown } = props;
  const common = useTranslations("common");
  const errorText = useErrorText();
  const [open, setOpen] = useState(false);
  const change = (next: boolean) => {
    setOpen(next);
    if (!next) {
      props.onClosed();
      mutation.reset();
    }
  };
  const close = () => change(false);
  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogTrigger asChild>
        <Button>
          <Icon aria-hidden className="h-4 w-4" />
          {title}
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
                  if (!props.keepOpenOnSuccess) close();
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
                {mutation.isPending ? common("creating") : common("create")}
              </Button>
            </div>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
