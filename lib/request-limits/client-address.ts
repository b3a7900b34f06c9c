/** The bucket every client shares when the address cannot be trusted. */
export const SHARED_CLIENT = "*";

/**
 * Who is asking, for per-client limits. Next 16 gives route handlers no socket address: its server
 * fills X-Forwarded-For with the socket's address only when the request has none (`??=` in
 * base-server), so without a proxy of ours in front the header says whatever the client wrote.
 * Hence: with TRUST_PROXY, the last X-Forwarded-For entry (the one that proxy appended or set);
 * without it, one bucket for every client of this process.
 */
export function clientAddress(req: Request, trustProxy: boolean): string {
  if (!trustProxy) return SHARED_CLIENT;
  const last = req.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
  return last ? last.slice(0, 64) : SHARED_CLIENT;
}
