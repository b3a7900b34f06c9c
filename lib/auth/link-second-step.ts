import { createHmac, timingSafeEqual } from "node:crypto";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { getConfig } from "../config";
import { signInSecondStep } from "../operators";
import { SHARED_CLIENT, clientAddress } from "../request-limits/client-address";
import { systemCtx } from "../open-ctx";
import { CodeNeeded, InvalidCode } from "./second-factor-errors";
import { authSecret } from "./settings";
import { TooManySignIns } from "./too-many-sign-ins";

/** The provider that takes a followed link's ticket and the second factor's code. */
export const LINK_CODE_PROVIDER = "link-code";

const sign = (payload: string) => createHmac("sha256", `${authSecret()}:link-second-step`).update(payload).digest("base64url");

/**
 * What a followed sign-in link leaves an operator with a second factor: not a session, a ticket —
 * the operator's id, until when, signed with AUTH_SECRET — that the code step exchanges, with a
 * code, for one. A link is one factor: it proves the mailbox, not the phone. It lasts as long as a
 * link does (SIGN_IN_LINK_TTL).
 */
export function linkTicket(operatorId: string, now = Date.now()): string {
  const payload = `${operatorId}.${now + getConfig().SIGN_IN_LINK_TTL}`;
  return `${payload}.${sign(payload)}`;
}

/** The operator a ticket names while it is good; null when forged, altered or expired. */
export function readLinkTicket(ticket: string, now = Date.now()): string | null {
  const match = /^([a-z]+_[0-9a-z]+)\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(ticket);
  if (!match) return null;
  const [, operatorId, until, mac] = match;
  const expected = Buffer.from(sign(`${operatorId}.${until}`));
  if (!timingSafeEqual(Buffer.from(mac!), expected) || Number(until) < now) return null;
  return operatorId!;
}

const LinkCodeFields = z.object({ ticket: z.string().max(200), code: z.string().max(40) });

/** The code step after a link: a ticket and a code make a session; attempts count as password attempts do. */
export function linkCodeProvider() {
  return Credentials({
    id: LINK_CODE_PROVIDER,
    credentials: { ticket: {}, code: {} },
    async authorize(credentials, request) {
      const parsed = LinkCodeFields.safeParse(credentials);
      const operatorId = parsed.success ? readLinkTicket(parsed.data.ticket) : null;
      if (!parsed.success || !operatorId) return null;
      if (!parsed.data.code.trim()) throw new CodeNeeded();
      const address = clientAddress(request, getConfig().TRUST_PROXY);
      const result = await signInSecondStep({ ctx: systemCtx(), input: { operatorId, code: parsed.data.code, address: address === SHARED_CLIENT ? null : address } });
      if (result.ok) return { id: result.operator.id, email: result.operator.email };
      if (result.reason === "rate_limited") throw new TooManySignIns(result.retryAfterSeconds);
      if (result.reason === "invalid_code") throw new InvalidCode();
      return null;
    },
  });
}
