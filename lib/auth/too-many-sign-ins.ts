import { CredentialsSignin } from "next-auth";

/**
 * Thrown out of `signIn` when this address has tried a password too often, an email or an address
 * has asked for too many sign-in links, or too many password checks are already waiting; the form
 * says when to retry. A CredentialsSignin, so Auth.js's own route also answers it as a client
 * error: /login?error=CredentialsSignin&code=rate_limited.
 */
export class TooManySignIns extends CredentialsSignin {
  override code = "rate_limited";
  constructor(readonly retryAfterSeconds: number) {
    super();
  }
}
