import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { LoginForm } from "@/components/auth/login-form";
import { currentOperator } from "@/lib/auth/current-operator";
import { emailLinkEnabled, signInLinkMinutes } from "@/lib/auth/email-link";
import { emailLinkAction, linkCodeAction, signInAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("auth"))("title") };
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string; ticket?: string }> }) {
  if (await currentOperator()) redirect("/");
  const { callbackUrl, error, ticket } = await searchParams;
  return (
    <LoginForm
      // Back from a followed sign-in link, for an operator with a second factor: the code step alone.
      linkTicket={typeof ticket === "string" && emailLinkEnabled() ? { ticket, signIn: linkCodeAction } : null}
      callbackUrl={typeof callbackUrl === "string" ? callbackUrl : "/"}
      signIn={signInAction}
      emailLink={emailLinkEnabled() ? { request: emailLinkAction, minutes: signInLinkMinutes() } : null}
      // Auth.js sends a link that had expired or was used already back here with this error.
      linkExpired={error === "Verification"}
    />
  );
}
