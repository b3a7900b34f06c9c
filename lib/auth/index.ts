import NextAuth from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { getConfig } from "../config";
import { SHARED_CLIENT, clientAddress } from "../request-limits/client-address";
import { signInOperator } from "../operators";
import { baseAuthConfig } from "./config";
import { emailLinkConfig } from "./email-link";
import { TooManySignIns } from "./too-many-sign-ins";
import { CodeNeeded, InvalidCode } from "./second-factor-errors";
import { linkCodeProvider } from "./link-second-step";
import { systemCtx } from "../open-ctx";

export { TooManySignIns, CodeNeeded, InvalidCode };

// The code is optional: without it, an operator with a second factor is answered CodeNeeded.
const SignInFields = z.object({ email: z.string().max(320), password: z.string().max(200), code: z.string().max(40).optional() });

export const { handlers, auth, signIn, signOut } = NextAuth((request) => {
  const base = baseAuthConfig(request);
  // Where SMTP_URL is set: the email sign-in link beside the password (lib/auth/email-link.ts).
  const emailLink = emailLinkConfig();
  return {
    ...base,
    adapter: emailLink.adapter,
    callbacks: { ...base.callbacks, ...emailLink.callbacks },
    providers: [
      ...emailLink.providers,
      ...(emailLink.providers.length > 0 ? [linkCodeProvider()] : []),
      Credentials({
        credentials: { email: { type: "email" }, password: { type: "password" }, code: {} },
        async authorize(credentials, request) {
          const parsed = SignInFields.safeParse(credentials);
          if (!parsed.success) return null;
          const address = clientAddress(request, getConfig().TRUST_PROXY);
          const code = parsed.data.code?.trim() || undefined;
          const result = await signInOperator({ ctx: systemCtx(), input: { ...parsed.data, code, address: address === SHARED_CLIENT ? null : address } });
          if (result.ok) return { id: result.operator.id, email: result.operator.email };
          if (result.reason === "rate_limited") throw new TooManySignIns(result.retryAfterSeconds);
          if (result.reason === "code_needed") throw new CodeNeeded();
          if (result.reason === "invalid_code") throw new InvalidCode();
          return null;
        },
      }),
    ],
  };
});
