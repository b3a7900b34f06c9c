import type { z } from "zod";
import { input, output, type Assert, type Item, type Same } from "../openapi/operation";

import type { createRecovery, DryRun } from "./create-recovery";
import type { getRecovery, listRecoveries, listRecoveryItems } from "./queries";
import type { retryFailedItems } from "./retry-failed";
import { CreateRecoveryInput, Recovery, RecoveryDryRun, RecoveryItem, RetryFailedInput } from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/api-document/document.ts.
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

