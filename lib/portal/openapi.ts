import type { SchemaEntry } from "../openapi/operation";
import { input } from "../openapi/operation";
import { CreatePortalLinkInput, ExchangePortalTokenInput } from "./schemas";

// This domain's part of the OpenAPI document, merged by lib/api-document/document.ts.
export const portalTag = {
  name: "Portal",
  description: "One-time links into the customer portal, and the consumer-scoped `ps_` sessions (Bearer ps_…) they are exchanged for.",
} as const;

export const portalSchemas: Record<string, SchemaEntry> = {
  CreatePortalLinkInput: input(CreatePortalLinkInput),
  ExchangePortalTokenInput: input(ExchangePortalTokenInput),
};
