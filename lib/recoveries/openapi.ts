import type { z } from "zod";
import { input, output, type Assert, type Item, type Operation, type Same } from "../openapi/operation";
import { PageQuery } from "../pagination";
import type { createRecovery, DryRun } from "./create-recovery";
import type { getRecovery, listRecoveries, listRecoveryItems } from "./queries";
import type { retryFailedItems } from "./retry-failed";
import {
  CreateRecoveryInput,
  ListItemsQuery,
  ListRecoveriesQuery,
  Recovery,
  RecoveryDryRun,
  RecoveryItem,
  RetryFailedInput,
} from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/openapi/document.ts.
type _DocumentedAnswersMatch = [
  Assert<Same<z.infer<typeof Recovery>, Awaited<ReturnType<typeof getRecovery>>>>,
  Assert<Same<z.infer<typeof Recovery>, Item<typeof listRecoveries>>>,
  Assert<Same<z.infer<typeof Recovery>, Awaited<ReturnType<typeof retryFailedItems>>>>,
  Assert<Same<z.infer<typeof Recovery>, Extract<Awaited<ReturnType<typeof createRecovery>>, { recovery: unknown }>["recovery"]>>,
  Assert<Same<z.infer<typeof RecoveryDryRun>, DryRun>>,
  Assert<Same<z.infer<typeof RecoveryItem>, Item<typeof listRecoveryItems>>>,
];

export const recoveryTag = {
  name: "Recoveries",
  description:
    "Bulk resends over a frozen scope: a dry run first, a canary, a rate that ramps, pause, resume and cancel, and a report where expected = succeeded + failed + skipped.",
} as const;

export const recoverySchemas = {
  CreateRecoveryInput: input(CreateRecoveryInput),
  RetryFailedInput: input(RetryFailedInput),
  Recovery: output(Recovery),
  RecoveryDryRun: output(RecoveryDryRun),
  RecoveryItem: output(RecoveryItem),
};

const CONSUMER = { consumer: "The consumer's id (`con_…`) or its `uid`." };
const ENDPOINT = { id: "The endpoint's id (`ep_…`)." };
const RECOVERY = { id: "The recovery's id (`rec_…`)." };

export const recoveryOperations: Operation[] = [
  {
    method: "post",
    path: "/endpoints/{id}/recover",
    operationId: "recoverEndpoint",
    summary: "Recover an endpoint's failed deliveries",
    description: "Freezes the scope into one item per delivery and starts the run (202). With `dry_run: true` it answers 200 with `RecoveryDryRun` — the exact count, per endpoint, and a sample — and writes nothing. Deliveries an active run holds are left out.",
    tag: "Recoveries",
    params: ENDPOINT,
    body: { schema: "CreateRecoveryInput" },
    success: { status: 202, description: "The run, planned.", schema: "Recovery" },
    also: [{ status: 200, description: "The dry run's count; nothing written.", schema: "RecoveryDryRun" }],
    errors: { 404: "`not_found`: no such endpoint.", 409: "`endpoint_not_active`: enable the endpoint first (a dry run still answers)." },
  },
  {
    method: "post",
    path: "/consumers/{consumer}/recover",
    operationId: "recoverConsumer",
    summary: "Recover a consumer's failed deliveries",
    description: "As for one endpoint, over every active endpoint of the consumer. Freezes the scope into one item per delivery and starts the run (202). With `dry_run: true` it answers 200 with `RecoveryDryRun` — the exact count, per endpoint, and a sample — and writes nothing. Deliveries an active run holds are left out.",
    tag: "Recoveries",
    params: CONSUMER,
    body: { schema: "CreateRecoveryInput" },
    success: { status: 202, description: "The run, planned.", schema: "Recovery" },
    also: [{ status: 200, description: "The dry run's count; nothing written.", schema: "RecoveryDryRun" }],
    errors: { 404: "`not_found`: no such consumer." },
  },
  {
    method: "get",
    path: "/recoveries",
    operationId: "listRecoveries",
    summary: "List recoveries",
    tag: "Recoveries",
    query: PageQuery.extend(ListRecoveriesQuery.shape),
    success: { status: 200, description: "A page of recoveries, newest first.", schema: "Recovery", list: true },
    errors: { 404: "`not_found`: no such consumer." },
  },
  {
    method: "get",
    path: "/recoveries/{id}",
    operationId: "getRecovery",
    summary: "Get a recovery and its counts",
    tag: "Recoveries",
    params: RECOVERY,
    success: { status: 200, description: "The recovery.", schema: "Recovery" },
  },
  {
    method: "get",
    path: "/recoveries/{id}/items",
    operationId: "listRecoveryItems",
    summary: "The reconciliation report",
    description: "Items in run order (oldest message first), each with its outcome. `format=csv` streams all of them as text/csv.",
    tag: "Recoveries",
    params: RECOVERY,
    query: PageQuery.extend(ListItemsQuery.shape),
    success: { status: 200, description: "A page of items, in run order.", schema: "RecoveryItem", list: true },
  },
  {
    method: "post",
    path: "/recoveries/{id}/pause",
    operationId: "pauseRecovery",
    summary: "Pause a recovery",
    tag: "Recoveries",
    params: RECOVERY,
    success: { status: 200, description: "The recovery, paused.", schema: "Recovery" },
    errors: { 409: "`invalid_state`: the recovery's state does not allow this move." },
  },
  {
    method: "post",
    path: "/recoveries/{id}/resume",
    operationId: "resumeRecovery",
    summary: "Resume a paused recovery",
    tag: "Recoveries",
    params: RECOVERY,
    success: { status: 200, description: "The recovery, resumed.", schema: "Recovery" },
    errors: { 409: "`invalid_state`: the recovery's state does not allow this move." },
  },
  {
    method: "post",
    path: "/recoveries/{id}/cancel",
    operationId: "cancelRecovery",
    summary: "Cancel a recovery",
    tag: "Recoveries",
    params: RECOVERY,
    success: { status: 200, description: "The recovery, canceled.", schema: "Recovery" },
    errors: { 409: "`invalid_state`: the recovery's state does not allow this move." },
  },
  {
    method: "post",
    path: "/recoveries/{id}/retry-failed",
    operationId: "retryFailedRecoveryItems",
    summary: "Start a new run over a recovery's failed items",
    tag: "Recoveries",
    params: RECOVERY,
    body: { schema: "RetryFailedInput", required: false },
    success: { status: 202, description: "The new run, planned.", schema: "Recovery" },
    errors: { 409: "`invalid_state`: the recovery is still active; it must be completed or canceled." },
  },
];
