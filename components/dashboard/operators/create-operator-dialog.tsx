"use client";

import { UserPlus } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { toast } from "sonner";
import { useErrorText } from "../../shared/error-message";
import { Button } from "../../ui/button";
import { Dialog, DialogContent, DialogTrigger } from "../../ui/dialog";
import { Input } from "../../ui/input";
import { Field } from "../../ui/label";
import { useCreateOperator, type Operator } from "./queries";

export function CreateOperatorDialog() {
  const t = useTranslations("operators");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<Operator["role"]>("viewer");
  const create = useCreateOperator();
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setEmail("");
      setPassword("");
      setRole("viewer");
      create.reset();
    }
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogTrigger asChild>
        <Button>
          <UserPlus aria-hidden className="h-4 w-4" />
          {t("create")}
        </Button>
      </DialogTrigger>
      <DialogContent title={t("create")} closeLabel={common("close")}>
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate(
              { email: email.trim(), password, role },
              {
                onSuccess: (created) => {
                  toast.success(t("created", { email: created.email }));
                  close(false);
                },
                onError: (error) => toast.error(errorText(error)),
              },
            );
          }}
        >
          <Field id="operator-email" label={t("email")}>
            <Input id="operator-email" type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} required />
          </Field>
          <Field id="operator-password" label={t("password")} hint={t("passwordHint")}>
            <Input
              id="operator-password"
              type="password"
              autoComplete="new-password"
              minLength={8}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
              aria-describedby="operator-password-hint"
            />
          </Field>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">{t("role")}</legend>
            {(["viewer", "admin"] as const).map((value) => (
              <label key={value} className="flex cursor-pointer items-start gap-2 rounded-md border border-border p-3 text-sm has-[:checked]:border-primary">
                <input type="radio" name="role" value={value} checked={role === value} onChange={() => setRole(value)} className="mt-0.5 accent-[var(--primary)]" />
                <span>
                  <span className="font-medium">{t(`roles.${value}`)}</span>
                  <span className="block text-muted-foreground">{t(`roleDescriptions.${value}`)}</span>
                </span>
              </label>
            ))}
          </fieldset>
          {create.error ? (
            <p role="alert" className="text-sm text-danger">
              {errorText(create.error)}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => close(false)}>
              {common("cancel")}
            </Button>
            <Button type="submit" disabled={create.isPending || !email.trim() || password.length < 8}>
              {create.isPending ? common("creating") : common("create")}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
