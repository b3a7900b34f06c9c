import { z } from "zod";
import { inTransaction, type Ctx } from "../context";
import { findConsumer } from "../consumers";
import { NotFoundError } from "../errors";
import type { PortalCapability } from "../portal/capabilities";
import { createPortalLink } from "../portal/create-portal-link";
import { endConsumerPortalSessions, endPortalSession } from "../portal/end-portal-sessions";
import { normalizeCapabilities } from "../portal/schemas";
import { startPortalSession } from "../portal/start-portal-session";
import { ApplicationIn, createApplication } from "./applications";

/**
 * Svix's app portal access over our portal: `url` is a one-time link into our portal for the
 * consumer (its token in the fragment, as POST /consumers/{c}/portal-links makes), and `token` a
 * portal session made at once, for the Svix SDK and svix-react's hooks on that application's
 * routes (another application is 404) and from a browser on PORTAL_CORS_ORIGINS.
 */
export const SVIX_CAPABILITIES = ["ViewBase", "ViewEndpointSecret", "ManageEndpointSecret", "ManageTransformations", "CreateAttempts", "ManageEndpoint"] as const;
type SvixCapability = (typeof SVIX_CAPABILITIES)[number];

const DEFAULT_EXPIRY_SECONDS = 7 * 86_400;
/** Our links are good for a day at most; the session they open lasts `expiry`. */
const MAX_LINK_TTL_SECONDS = 86_400;

export const AppPortalAccessIn = z.object({
  application: ApplicationIn.nullish(),
  expiry: z.number().int().min(3_600).max(604_800).nullish(),
  capabilities: z.array(z.enum(SVIX_CAPABILITIES)).nullish(),
  readOnly: z.boolean().nullish(),
  featureFlags: z.array(z.string()).nullish(),
  sessionId: z.string().nullish(),
});
export type AppPortalAccessIn = z.infer<typeof AppPortalAccessIn>;

export const AppPortalAccessOut = z.object({ url: z.string(), token: z.string() });

const GRANTS: Record<SvixCapability, PortalCapability[]> = {
  ViewBase: [],
  ViewEndpointSecret: ["view_secrets"],
  ManageEndpoint: ["manage_endpoints"],
  ManageEndpointSecret: ["manage_endpoints"],
  CreateAttempts: ["resend", "recover"],
  ManageTransformations: [],
};

/** Svix's capabilities as ours: none given is everything (Svix's default), `readOnly` is nothing beyond reading. */
export function portalCapabilities(input: Pick<AppPortalAccessIn, "capabilities" | "readOnly">): PortalCapability[] {
  if (input.readOnly) return [];
  if (!input.capabilities) return normalizeCapabilities(undefined);
  return normalizeCapabilities(input.capabilities.flatMap((c) => GRANTS[c]));
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
    const link = await createPortalLink({
      ctx: tx,
      ref: consumer.id,
      input: { ttl_seconds: Math.min(expiry, MAX_LINK_TTL_SECONDS), session_ttl_seconds: expiry, capabilities },
    });
    const session = await startPortalSession({ ctx: tx, session: { consumerId: consumer.id, capabilities, locale: null, theme: {}, ttlSeconds: expiry } });
    return { url: link.url, token: session.session_token };
  });
}

/** Ends every portal session of the application (Svix's `expiry` and `sessionIds` are not honoured: all end now). */
export async function expireAllPortalSessions(ctx: Ctx, ref: string): Promise<void> {
  await endConsumerPortalSessions({ ctx, ref });
}

/** Ends the calling app-portal token's session. */
export async function logout(ctx: Ctx): Promise<void> {
  await endPortalSession({ ctx });
}
