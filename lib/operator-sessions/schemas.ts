import { z } from "zod";
import type { operatorSessions } from "../db/schema";
import { describeDevice } from "./describe-device";

export const OperatorSession = z.object({
  id: z.string(),
  /** "Firefox on Linux", from the User-Agent at sign-in; null when it names nothing we know. */
  device: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** The client's address at sign-in (TRUST_PROXY); null when it could not be trusted. */
  address: z.string().nullable(),
  created_at: z.string(),
  /** Updated at most once a minute. */
  last_seen_at: z.string(),
  expires_at: z.string(),
  /** The session this request was made with ("this device"). */
  current: z.boolean(),
});
export type OperatorSession = z.infer<typeof OperatorSession>;

export const OperatorSessionList = z.object({ data: z.array(OperatorSession) });
export type OperatorSessionList = z.infer<typeof OperatorSessionList>;

export const EndedSessions = z.object({ ended: z.number().int() });
export type EndedSessions = z.infer<typeof EndedSessions>;

export function toOperatorSession(row: typeof operatorSessions.$inferSelect, currentId: string | undefined): OperatorSession {
  return {
    id: row.id,
    device: describeDevice(row.userAgent),
    user_agent: row.userAgent,
    address: row.address,
    created_at: row.createdAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    current: row.id === currentId,
  };
}
