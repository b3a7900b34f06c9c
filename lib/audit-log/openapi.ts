import { output, type Assert, type Same } from "../openapi/operation";

import type { listAuditEvents } from "./list-audit-events";
import { AuditEventView } from "./schemas";

// The documented answer must be the one the code produces: this fails to compile on drift.
type _DocumentedAnswersMatch = [Assert<Same<AuditEventView, Awaited<ReturnType<typeof listAuditEvents>>["data"][number]>>];

// This domain's part of the OpenAPI document, merged by lib/api-document/document.ts.
export const auditTag = {
  name: "Audit",
  description: "Who did what: API keys, operators, portal sessions and the system itself, each written in the transaction of the change.",
} as const;

export const auditSchemas = { AuditEvent: output(AuditEventView) };
