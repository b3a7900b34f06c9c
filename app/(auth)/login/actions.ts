"use server";

import { AuthError } from "next-auth";
import { z } from "zod";
import type { LinkState, SignInState } from "@/components/auth/sign-in-state";
import { signIn, TooManySignIns } from "@/lib/auth";
import { EMAIL_PROVIDER, emailLinkEnabled } from "@/lib/auth/email-link";
import { OIDC_PROVIDER, passwordSignInEnabled } from "@/lib/auth/oidc";

/** Only a path on this site: a sign-in link must not be able to send anyone elsewhere. */
function safeCallback(value: FormDataEntryValue | null): string {
  const path = typeof value === "string" ? value : "/";
  return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : "/";
}

export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  if (!passwordSignInEnabled()) return { error: "password_off" };
  try {
    await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirectTo: safeCallback(form.get("callbackUrl")),
    });
    return { error: null };
  } catch (error) {
    if (error instanceof TooManySignIns) return { error: "rate_limited", minutes: Math.ceil(error.retryAfterSeconds / 60) };
    if (error instanceof AuthError) return { error: "invalid" };
    // The redirect after a successful sign-in travels as a thrown value.
    throw error;
  }
}

const LinkEmail = z.email().max(320);

export async function emailLinkAction(_previous: LinkState, form: FormData): Promise<LinkState> {
  const email = LinkEmail.safeParse(String(form.get("email") ?? "").trim());
  if (!email.success || !emailLinkEnabled()) return { status: "invalid_email" };
  try {
    await signIn(EMAIL_PROVIDER, { email: email.data, redirectTo: safeCallback(form.get("callbackUrl")), redirect: false });
    return { status: "sent", email: email.data };
  } catch (error) {
    if (error instanceof TooManySignIns) return { status: "rate_limited", minutes: Math.ceil(error.retryAfterSeconds / 60) };
    throw error;
  }
}

/** Starts single sign-on: Auth.js redirects to the identity provider (a thrown redirect). */
export async function ssoSignInAction(form: FormData): Promise<void> {
  await signIn(OIDC_PROVIDER, { redirectTo: safeCallback(form.get("callbackUrl")) });
}
