"use client";

import { Webhook } from "lucide-react";
import { useTranslations } from "next-intl";
import { useActionState, useState } from "react";
import { LanguageMenu } from "../shared/preference-menus";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { Input } from "../ui/input";
import { Field } from "../ui/label";
import type { LinkState, SignInState } from "./sign-in-state";

/** Where SMTP_URL is set, the sign-in link's action and how long a link works. */
export type EmailLinkOption = { request: (previous: LinkState, form: FormData) => Promise<LinkState>; minutes: number };

/** Back from a followed sign-in link, for an operator with a second factor: its ticket and the code step's action. */
export type LinkTicketOption = { ticket: string; signIn: (previous: SignInState, form: FormData) => Promise<SignInState> };

/** An action the form never calls (the link option is absent): keeps the hooks unconditional. */
const noLink = async (): Promise<LinkState> => ({ status: "idle" });

/** The second factor's code, or a recovery code: its field, on whichever step asks for it. */
function CodeField({ invalid }: { invalid: boolean }) {
  const t = useTranslations("auth");
  return (
    <Field id="code" label={t("code")} hint={t("codeHint")}>
      <Input id="code" name="code" autoComplete="one-time-code" required autoFocus maxLength={20} aria-invalid={invalid ? true : undefined} aria-describedby="code-hint" />
    </Field>
  );
}

/** A refusal of the code step, or null. */
function codeError(t: ReturnType<typeof useTranslations<"auth">>, state: SignInState): string | null {
  if (state.error === "invalid_code") return t("invalidCode");
  if (state.error === "ticket_invalid") return t("linkExpired");
  if (state.error === "rate_limited") return t("rateLimited", { minutes: state.minutes });
  return null;
}

/** The page a followed sign-in link leads to when the operator has a second factor: the code, and nothing else. */
function LinkCodeForm({ option }: { option: LinkTicketOption }) {
  const t = useTranslations("auth");
  const [state, action, pending] = useActionState<SignInState, FormData>(option.signIn, { error: null });
  const error = codeError(t, state);
  return (
    <form action={action} className="mt-6 space-y-4" noValidate data-testid="code-step">
      <input type="hidden" name="ticket" value={option.ticket} />
      <p className="text-sm text-muted-foreground">{t("codeNeeded")}</p>
      <CodeField invalid={error !== null} />
      {error ? (
        <p role="alert" className="rounded-md bg-danger/10 px-3 py-2 text-sm text-danger" data-testid="login-error">
          {error}
        </p>
      ) : null}
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? t("submitting") : t("verify")}
      </Button>
    </form>
  );
}

export function LoginForm({
  callbackUrl,
  signIn,
  emailLink,
  linkExpired,
  linkTicket,
}: {
  callbackUrl: string;
  signIn: (previous: SignInState, form: FormData) => Promise<SignInState>;
  emailLink: EmailLinkOption | null;
  /** Back from a sign-in link that had expired or was used already. */
  linkExpired: boolean;
  linkTicket: LinkTicketOption | null;
}) {
  const t = useTranslations("auth");
  // Controlled, so React's reset of the form after each action keeps the address typed: a refusal
  // or a sent link should not make the operator type it again.
  const [email, setEmail] = useState("");
  // Kept too: the code step sends the password again with the code (the password alone signs nobody in).
  const [password, setPassword] = useState("");
  const [state, action, pending] = useActionState<SignInState, FormData>(signIn, { error: null });
  const codeStep = state.error === "code_needed" || state.error === "invalid_code";
  const [link, linkAction, linkPending] = useActionState<LinkState, FormData>(emailLink?.request ?? noLink, { status: "idle" });
  const error =
    state.error === "invalid"
      ? t("invalid")
      : state.error === "invalid_code"
        ? t("invalidCode")
        : state.error === "rate_limited"
          ? t("rateLimited", { minutes: state.minutes })
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
        {linkTicket ? (
          <LinkCodeForm option={linkTicket} />
        ) : (
          <form action={action} className="mt-6 space-y-4" noValidate>
            <input type="hidden" name="callbackUrl" value={callbackUrl} />
            <div hidden={codeStep} className="space-y-4">
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
                <Input
                  id="password"
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  required
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  aria-invalid={state.error === "invalid" ? true : undefined}
                />
              </Field>
            </div>
            {codeStep ? (
              <>
                <p className="text-sm text-muted-foreground" data-testid="code-step">
                  {t("codeNeeded")}
                </p>
                <CodeField invalid={state.error === "invalid_code"} />
              </>
            ) : null}
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
              {pending ? t("submitting") : codeStep ? t("verify") : t("submit")}
            </Button>
            {emailLink && !codeStep ? (
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
        )}
      </Card>
      <p className="mt-6 max-w-sm text-center text-xs text-muted-foreground">{t("hint")}</p>
    </main>
  );
}
