"use client";

import { Webhook } from "lucide-react";
import { useTranslations } from "next-intl";
import { useActionState, useState, type ReactNode } from "react";
import { LanguageMenu } from "../shared/preference-menus";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { Input } from "../ui/input";
import { Field } from "../ui/label";
import type { LinkState, SignInState } from "./sign-in-state";

/** Where SMTP_URL is set, the sign-in link's action and how long a link works. */
export type EmailLinkOption = { request: (previous: LinkState, form: FormData) => Promise<LinkState>; minutes: number };

/** An action the form never calls (the link option is absent): keeps the hooks unconditional. */
const noLink = async (): Promise<LinkState> => ({ status: "idle" });

export function LoginForm({
  callbackUrl,
  signIn,
  emailLink,
  linkExpired,
  sso = null,
  passwordSignIn = true,
}: {
  callbackUrl: string;
  signIn: (previous: SignInState, form: FormData) => Promise<SignInState>;
  emailLink: EmailLinkOption | null;
  /** Back from a sign-in link that had expired or was used already. */
  linkExpired: boolean;
  /** Single sign-on's button (components/auth/sso-sign-in.tsx), above the password form; null without it. */
  sso?: ReactNode;
  /** PASSWORD_SIGN_IN: false leaves single sign-on alone on the page. */
  passwordSignIn?: boolean;
}) {
  const t = useTranslations("auth");
  // Controlled, so React's reset of the form after each action keeps the address typed: a refusal
  // or a sent link should not make the operator type it again.
  const [email, setEmail] = useState("");
  const [state, action, pending] = useActionState<SignInState, FormData>(signIn, { error: null });
  const [link, linkAction, linkPending] = useActionState<LinkState, FormData>(emailLink?.request ?? noLink, { status: "idle" });
  const error =
    state.error === "invalid"
      ? t("invalid")
      : state.error === "rate_limited"
        ? t("rateLimited", { minutes: state.minutes })
        : state.error === "password_off"
          ? t("passwordOff")
        : linkExpired && link.status === "idle"
          ? t("linkExpired")
          : null;
  const linkError =
    link.status === "invalid_email" ? t("linkInvalidEmail") : link.status === "rate_limited" ? t("linkRateLimited", { minutes: link.minutes }) : null;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <div className="absolute top-4 right-4">
        <LanguageMenu />
      </div>
      <div className="mb-6 flex items-center gap-2 text-lg font-semibold">
        <Webhook aria-hidden className="h-6 w-6 text-primary" />
        Webhook Admin
      </div>
      <Card className="w-full max-w-sm p-6">
        <h1 className="text-xl font-semibold">{t("title")}</h1>
        <p className="mt-1 text-sm text-muted-foreground">{t("subtitle")}</p>
        {sso ? <div className="mt-6">{sso}</div> : null}
        {sso && passwordSignIn ? (
          <div className="mt-4 flex items-center gap-3 text-xs text-muted-foreground" aria-hidden>
            <span className="h-px flex-1 bg-border" />
            {t("or")}
            <span className="h-px flex-1 bg-border" />
          </div>
        ) : null}
        {/* Not indented under the condition, so the form's own lines stay as they were. */}
        {passwordSignIn ? (
        <form action={action} className={sso ? "mt-4 space-y-4" : "mt-6 space-y-4"} noValidate>
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <Field id="email" label={t("email")}>
            <Input
              id="email"
              name="email"
              type="email"
              autoComplete="username"
              required
              autoFocus
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={state.error ? true : undefined}
            />
          </Field>
          <Field id="password" label={t("password")}>
            <Input id="password" name="password" type="password" autoComplete="current-password" required aria-invalid={state.error ? true : undefined} />
          </Field>
          {error ? (
            <p role="alert" className="rounded-md bg-danger/10 px-3 py-2 text-sm text-danger" data-testid="login-error">
              {error}
            </p>
          ) : null}
          {linkError ? (
            <p role="alert" className="rounded-md bg-danger/10 px-3 py-2 text-sm text-danger" data-testid="link-error">
              {linkError}
            </p>
          ) : null}
          {link.status === "sent" ? (
            <p role="status" className="rounded-md bg-success/10 px-3 py-2 text-sm text-success" data-testid="link-sent">
              {t("linkSent", { email: link.email })}
            </p>
          ) : null}
          <Button type="submit" className="w-full" disabled={pending || linkPending}>
            {pending ? t("submitting") : t("submit")}
          </Button>
          {emailLink ? (
            <>
              <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden>
                <span className="h-px flex-1 bg-border" />
                {t("or")}
                <span className="h-px flex-1 bg-border" />
              </div>
              <Button type="submit" variant="secondary" className="w-full" formAction={linkAction} formNoValidate disabled={pending || linkPending}>
                {linkPending ? t("emailLinkSending") : t("emailLink")}
              </Button>
              <p className="text-xs text-muted-foreground">{t("emailLinkHint", { minutes: emailLink.minutes })}</p>
            </>
          ) : null}
        </form>
        ) : null}
      </Card>
      <p className="mt-6 max-w-sm text-center text-xs text-muted-foreground">{passwordSignIn ? t("hint") : t("ssoOnly")}</p>
    </main>
  );
}
