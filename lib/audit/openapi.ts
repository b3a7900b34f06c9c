import { output, type Assert, type Operation, type Same } from "../openapi/operation";
import { PageQuery } from "../pagination";
import type { listAuditEvents } from "./list-audit-events";
import { AuditEventView, ListAuditEventsQuery } from "./schemas";

// The documented answer must be the one the code produces: this fails to compile on drift.
type _DocumentedAnswersMatch = [Assert<Same<AuditEventView, Awaited<ReturnType<typeof listAuditEvents>>["data"][number]>>];

// This domain's part of the OpenAPI document, merged by lib/openapi/document.ts.
export const auditTag = {
  name: "Audit",
  description: "Who did what: API keys, operators, portal sessions and the system itself, each written in the transaction of the change.",
} as const;

export const auditSchemas = { AuditEvent: output(AuditEventView) };

export const auditOperations: Operation[] = [
  {
    method: "get",
    path: "/audit-events",
    operationId: "listAuditEvents",
    summary: "List audit events",
    description: "Newest first. For API keys and operators; a portal session is refused.",
    tag: "Audit",
    query: PageQuery.extend(ListAuditEventsQuery.shape),
    success: { status: 200, description: "A page of audit events.", schema: "AuditEvent", list: true },
    errors: { 403: "`forbidden`: a portal session may not read the audit log." },
  },
];
