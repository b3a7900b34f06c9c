import { z } from "zod";
import { inTransaction, type Ctx } from "../context";
import { findConsumer } from "../consumers";
import { NotFoundError } from "../errors";
import type { PortalPermission } from "../portal/capabilities";
import { createPortalLink } from "../portal/create-portal-link";
import { endConsumerPortalSessions, endPortalSession } from "../portal/end-portal-sessions";
import { startPortalSession } from "../portal/start-portal-session";
import { ApplicationIn, createApplication } from "./applications";

/**
 * Svix's app portal access over our portal: `url` is a one-time link into our portal for the
 * consumer (its token in the fragment, as POST /consumers/{c}/portal-links makes), and `token` a
 * portal session made at once, for the Svix SDK and svix-react's hooks on the Svix routes of that
 * application only (another application is 404, our own API 403) and from a browser on
 * PORTAL_CORS_ORIGINS. Both are ended by expire-all and by ending the consumer's portal sessions.
 */
export const SVIX_CAPABILITIES = ["ViewBase", "ViewEndpointSecret", "ManageEndpointSecret", "ManageTransformations", "CreateAttempts", "ManageEndpoint"] as const;
type SvixCapability = (typeof SVIX_CAPABILITIES)[number];

const DEFAULT_EXPIRY_SECONDS = 7 * 86_400;
/** Our links are good for a day at most; the session they open lasts `expiry`. */
const MAX_LINK_TTL_SECONDS = 86_400;

// Svix's `sessionId` rule (AppPortalAccessIn, ApplicationTokenExpireIn).
const SvixSessionId = z.string().min(1).max(64).regex(/^[a-zA-Z0-9@_-]+$/);

export const AppPortalAccessIn = z.object({
  application: ApplicationIn.nullish(),
  expiry: z.number().int().min(3_600).max(604_800).nullish(),
  capabilities: z.array(z.enum(SVIX_CAPABILITIES)).nullish(),
  readOnly: z.boolean().nullish(),
  featureFlags: z.array(z.string()).nullish(),
  sessionId: SvixSessionId.nullish(),
});
export type AppPortalAccessIn = z.infer<typeof AppPortalAccessIn>;

export const AppPortalAccessOut = z.object({ url: z.string(), token: z.string() });

/**
 * What each Svix capability grants, as Svix documents AppPortalCapability, beyond reading the
 * application (what every session may: ViewBase, which never shows a secret or a sensitive
 * header's value). The one table the token, the link's session and docs/security.md follow.
 */
export const SVIX_GRANTS: Record<SvixCapability, readonly PortalPermission[]> = {
  ViewBase: [],
  // "Allows user to view the endpoint secret": read only, no rotation.
  ViewEndpointSecret: ["view_secrets"],
  // "Allows user to rotate and view the endpoint secret": not the endpoint itself.
  ManageEndpointSecret: ["view_secrets", "rotate_secrets"],
  // We have no transformations (their routes are 501): nothing to grant.
  ManageTransformations: [],
  // "Replay missing messages": resend, recover and replay-missing all make attempts.
  CreateAttempts: ["resend", "recover"],
  // "Read/modify any field or configuration of an endpoint (including secrets)".
  ManageEndpoint: ["manage_endpoints", "view_secrets", "rotate_secrets"],
};
const PERMISSION_ORDER: readonly PortalPermission[] = ["manage_endpoints", "view_secrets", "rotate_secrets", "resend", "recover"];

/** Svix's capabilities as ours: none given is every one (Svix's default), `readOnly` (deprecated) is reading only. */
export function portalCapabilities(input: Pick<AppPortalAccessIn, "capabilities" | "readOnly">): PortalPermission[] {
  if (input.readOnly) return [];
  const granted = (input.capabilities ?? SVIX_CAPABILITIES).flatMap((c) => SVIX_GRANTS[c]);
  return PERMISSION_ORDER.filter((p) => granted.includes(p));
}

export async function appPortalAccess(ctx: Ctx, ref: string, input: AppPortalAccessIn): Promise<z.infer<typeof AppPortalAccessOut>> {
  const expiry = input.expiry ?? DEFAULT_EXPIRY_SECONDS;
  const capabilities = portalCapabilities(input);
  return inTransaction(ctx, async (tx) => {
    const consumer = await findConsumer(tx, ref).catch(async (error: unknown) => {
      if (!(error instanceof NotFoundError) || !input.application) throw error;
      const { app } = await createApplication(tx, { ...input.application, uid: input.application.uid ?? ref }, true);
      return findConsumer(tx, app.id);
    });
    const sessionId = input.sessionId ?? null;
    const link = await createPortalLink({
      ctx: tx,
      ref: consumer.id,
      input: { ttl_seconds: Math.min(expiry, MAX_LINK_TTL_SECONDS), session_ttl_seconds: expiry },
      svix: { capabilities, sessionId },
    });
    const session = await startPortalSession({
      ctx: tx,
      session: { consumerId: consumer.id, capabilities, locale: null, theme: {}, ttlSeconds: expiry, svix: { kind: "token", sessionId } },
    });
    return { url: link.url, token: session.session_token };
  });
}

export const ExpireAllIn = z.object({
  expiry: z.number().int().min(0).max(259_200).nullish(),
  sessionIds: z.array(SvixSessionId).max(1_000).nullish(),
});
export type ExpireAllIn = z.infer<typeof ExpireAllIn>;

/**
 * Svix's expire-all: the application's portal sessions and unused links end, those made with one
 * of `sessionIds` only when it is given (an empty list is every one, as Svix), in `expiry` seconds
 * (now by default).
 */
export async function expireAllPortalSessions(ctx: Ctx, ref: string, input: ExpireAllIn): Promise<void> {
  await endConsumerPortalSessions({ ctx, ref, svixSessionIds: input.sessionIds?.length ? input.sessionIds : undefined, inSeconds: input.expiry ?? 0 });
}

/** Ends the calling app-portal token's session. */
export async function logout(ctx: Ctx): Promise<void> {
  await endPortalSession({ ctx });
}
