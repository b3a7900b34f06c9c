"use client";

import { KeyRound } from "lucide-react";
import { useTranslations } from "next-intl";
import { useFormStatus } from "react-dom";
import type { SsoRefusal } from "@/lib/auth/oidc";
import { Button } from "../ui/button";


function SsoButton({ label, primary }: { label: string | null; primary: boolean }) {
  const t = useTranslations("auth");
  const { pending } = useFormStatus();
  return (
    <Button type="submit" variant={primary ? "primary" : "secondary"} className="w-full" disabled={pending} data-testid="sso-button">
      <KeyRound aria-hidden className="h-4 w-4" />
      {pending ? t("ssoRedirecting") : (label ?? t("sso"))}
    </Button>
  );
}

/**
 * The button that starts single sign-on (a server action: Auth.js's sign-in, which redirects to
 * the identity provider), and why the last one was refused.
 */
export function SsoSignIn({
  action,
  callbackUrl,
  label,
  refusal,
  primary,
}: {
  action: (form: FormData) => Promise<void>;
  callbackUrl: string;
  /** OIDC_LABEL, else the page's own words. */
  label: string | null;
  refusal: SsoRefusal | null;
  /** The page's one way in (PASSWORD_SIGN_IN=false): drawn as its main button. */
  primary: boolean;
}) {
  const t = useTranslations("auth");
  return (
    <form action={action} className="space-y-3">
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      {refusal ? (
        <p role="alert" className="rounded-md bg-danger/10 px-3 py-2 text-sm text-danger" data-testid="sso-error">
          {t(`ssoRefused.${refusal}`)}
        </p>
      ) : null}
      <SsoButton label={label} primary={primary} />
    </form>
  );
}
