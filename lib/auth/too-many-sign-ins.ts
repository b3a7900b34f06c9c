import { CredentialsSignin } from "next-auth";

/**
 * Thrown out of `signIn` when the email or the address has tried too often (a password, or asking
 * for a sign-in link); the form says when to retry. A CredentialsSignin, so Auth.js's own route
 * also answers it as a client error: /login?error=CredentialsSignin&code=rate_limited.
 */
export class TooManySignIns extends CredentialsSignin {
  override code = "rate_limited";
  constructor(readonly retryAfterSeconds: number) {
    super();
  }
}
