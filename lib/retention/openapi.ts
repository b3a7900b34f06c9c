import type { z } from "zod";
import { output, type Assert, type Same } from "../openapi/operation";
import type { getDataLifecycle, getErasure } from "./queries";
import { DataLifecycle, Erasure } from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/api-document/document.ts.
type _DocumentedAnswersMatch = [
  Assert<Same<z.infer<typeof Erasure>, Awaited<ReturnType<typeof getErasure>>>>,
  Assert<Same<z.infer<typeof DataLifecycle>, Awaited<ReturnType<typeof getDataLifecycle>>>>,
];

export const retentionTag = {
  name: "Data lifecycle",
  description: "Retention, payload expunge and consumer erasure: what is kept, for how long, and how a customer's data is erased.",
} as const;

export const retentionSchemas = { Erasure: output(Erasure), DataLifecycle: output(DataLifecycle) };
