import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { LoginForm } from "@/components/auth/login-form";
import { SsoSignIn } from "@/components/auth/sso-sign-in";
import { currentOperator } from "@/lib/auth/current-operator";
import { emailLinkEnabled, signInLinkMinutes } from "@/lib/auth/email-link";
import { passwordSignInEnabled, ssoRefusal, ssoSettings } from "@/lib/auth/oidc";
import { emailLinkAction, linkCodeAction, signInAction, ssoSignInAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("auth"))("title") };
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string; reason?: string; ticket?: string }> }) {
  if (await currentOperator()) redirect("/");
  const { callbackUrl, error, reason, ticket } = await searchParams;
  const back = typeof callbackUrl === "string" ? callbackUrl : "/";
  const sso = ssoSettings();
  const password = passwordSignInEnabled();
  return (
    <LoginForm
      // Back from a followed sign-in link, for an operator with a second factor: the code step alone.
      linkTicket={typeof ticket === "string" && emailLinkEnabled() ? { ticket, signIn: linkCodeAction } : null}
      callbackUrl={back}
      sso={sso ? <SsoSignIn action={ssoSignInAction} callbackUrl={back} label={sso.label ?? null} refusal={ssoRefusal(error, reason)} primary={!password} /> : null}
      passwordSignIn={password}
      signIn={signInAction}
      emailLink={emailLinkEnabled() ? { request: emailLinkAction, minutes: signInLinkMinutes() } : null}
      // Auth.js sends a link that had expired or was used already back here with this error.
      linkExpired={error === "Verification"}
    />
  );
}
