"use client";

import { UserPlus } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { FormDialog } from "../../shared/form-dialog";
import { Input } from "../../ui/input";
import { Field } from "../../ui/label";
import { useCreateOperator, type Operator } from "./queries";

export function CreateOperatorDialog() {
  const t = useTranslations("operators");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<Operator["role"]>("viewer");
  const create = useCreateOperator();
  return (
    <FormDialog
      title={t("create")}
      icon={UserPlus}
      mutation={create}
      toInput={() => ({ email: email.trim(), password, role })}
      ready={email.trim() !== "" && password.length >= 8}
      successText={(created) => t("created", { email: created.email })}
      onClosed={() => {
        setEmail("");
        setPassword("");
        setRole("viewer");
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
    </FormDialog>
  );
}
