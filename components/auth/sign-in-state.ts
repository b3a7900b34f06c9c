/** What the sign-in action answers the form: nothing yet, or why it refused. */
export type SignInState = { error: null } | { error: "invalid" } | { error: "rate_limited"; minutes: number };
