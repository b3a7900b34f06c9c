import { CredentialsSignin } from "next-auth";

/**
 * The password (or the link) was right and the operator has a second factor: nothing was signed in;
 * the form asks for the code and sends all of it again. /login?error=CredentialsSignin&code=code_needed
 * from Auth.js's own route.
 */
export class CodeNeeded extends CredentialsSignin {
  override code = "code_needed";
}

/** The first factor was right, the code was not (wrong, replayed, or a recovery code used already). */
export class InvalidCode extends CredentialsSignin {
  override code = "invalid_code";
}
