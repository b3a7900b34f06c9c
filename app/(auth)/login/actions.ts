"use server";

import { AuthError } from "next-auth";
import { z } from "zod";
import type { LinkState, SignInState } from "@/components/auth/sign-in-state";
import { CodeNeeded, InvalidCode, signIn, TooManySignIns } from "@/lib/auth";
import { EMAIL_PROVIDER, emailLinkEnabled } from "@/lib/auth/email-link";
import { LINK_CODE_PROVIDER } from "@/lib/auth/link-second-step";

/** Only a path on this site: a sign-in link must not be able to send anyone elsewhere. */
function safeCallback(value: FormDataEntryValue | null): string {
  const path = typeof value === "string" ? value : "/";
  return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : "/";
}

/** Why a sign-in was refused, for the form; anything else (the redirect of a success) goes on up. */
function refusal(error: unknown, otherwise: SignInState): SignInState {
  if (error instanceof TooManySignIns) return { error: "rate_limited", minutes: Math.ceil(error.retryAfterSeconds / 60) };
  if (error instanceof CodeNeeded) return { error: "code_needed" };
  if (error instanceof InvalidCode) return { error: "invalid_code" };
  if (error instanceof AuthError) return otherwise;
  // The redirect after a successful sign-in travels as a thrown value.
  throw error;
}

/** Email and password, and the second factor's code once the form has asked for it (code_needed). */
export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  try {
    await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      code: String(form.get("code") ?? ""),
      redirectTo: safeCallback(form.get("callbackUrl")),
    });
    return { error: null };
  } catch (error) {
    return refusal(error, { error: "invalid" });
  }
}

/** After a followed sign-in link, for an operator with a second factor: the link's ticket and a code. */
export async function linkCodeAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  try {
    await signIn(LINK_CODE_PROVIDER, { ticket: String(form.get("ticket") ?? ""), code: String(form.get("code") ?? ""), redirectTo: "/" });
    return { error: null };
  } catch (error) {
    return refusal(error, { error: "ticket_invalid" });
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
