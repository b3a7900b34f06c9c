import { isAllowedAncestor } from "@/lib/portal-page/frame-ancestors";

/**
 * What the portal tells the page that frames it, by window.postMessage, each message an object
 * whose `type` starts with "webhook-admin:":
 *   { type: "webhook-admin:ready", version: 1, consumer_id, locale }  — signed in and shown
 *   { type: "webhook-admin:resize", version: 1, height }                — content height in CSS px
 *   { type: "webhook-admin:session.expired", version: 1, reason }       — no usable session; mint a new link
 *     reason: "invalid_link" (used, expired or unknown link) | "expired" (session ended or revoked)
 *             | "no_link" (opened without a link) | "signed_out"
 * Messages go only to the framing page's origin, and only when PORTAL_FRAME_ANCESTORS allows it
 * (CSP already stops others from framing; this keeps a browser without that check from leaking).
 */
export type HostMessage =
  | { type: "ready"; consumer_id: string; locale: string }
  | { type: "resize"; height: number }
  | { type: "session.expired"; reason: "invalid_link" | "expired" | "no_link" | "signed_out" };

/** The origin of the page framing this one, if it is an allowed frame ancestor; null when not framed. */
export function hostOrigin(frameAncestors: readonly string[]): string | null {
  if (window.parent === window) return null;
  const ancestors = (window.location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  let origin: string | null = ancestors?.length ? ancestors[0]! : null;
  if (!origin && document.referrer) {
    try {
      origin = new URL(document.referrer).origin;
    } catch {
      origin = null;
    }
  }
  return origin && isAllowedAncestor(origin, frameAncestors, window.location.origin) ? origin : null;
}

export function postToHost(origin: string | null, message: HostMessage): void {
  if (!origin) return;
  const { type, ...rest } = message;
  window.parent.postMessage({ type: `webhook-admin:${type}`, version: 1, ...rest }, origin);
}
