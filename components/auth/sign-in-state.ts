/** What the sign-in action answers the form: nothing yet, or why it refused. */
export type SignInState = { error: null } | { error: "invalid" } | { error: "rate_limited"; minutes: number } | { error: "password_off" };

/** What asking for a sign-in link answers: the same "sent" for every well-formed address. */
export type LinkState =
  | { status: "idle" }
  | { status: "sent"; email: string }
  | { status: "invalid_email" }
  | { status: "rate_limited"; minutes: number };
