/**
 * The address a request came from, for the per-address sign-in limit. Next.js sets
 * X-Forwarded-For to the socket's peer only when the header is absent, and a reverse proxy appends
 * the peer it saw, so the right-most entry is the one nobody outside could choose — provided a
 * proxy is in front. Without one a client can set the header itself; the per-email limit holds
 * regardless (README, Decisions).
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for");
  const last = forwarded?.split(",").map((part) => part.trim()).filter(Boolean).pop();
  return last || "unknown";
}
