/**
 * What the sign-in action answers the form: nothing yet, or why it refused — "code_needed" when the
 * first factor was right and a second factor's code must come with it (nothing was signed in),
 * "invalid_code" when that code was wrong, "ticket_invalid" when a followed link's ticket expired.
 */
export type SignInState =
  | { error: null }
  | { error: "invalid" | "code_needed" | "invalid_code" | "ticket_invalid" }
  | { error: "rate_limited"; minutes: number };

/** What asking for a sign-in link answers: the same "sent" for every well-formed address. */
export type LinkState =
  | { status: "idle" }
  | { status: "sent"; email: string }
  | { status: "invalid_email" }
  | { status: "rate_limited"; minutes: number };
