import type { z } from "zod";
import { output, type Assert, type Same } from "../openapi/operation";
import type { getStats } from "./queries";
import { StatsSeries } from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/openapi/document.ts.
type _DocumentedAnswersMatch = [Assert<Same<z.infer<typeof StatsSeries>, Awaited<ReturnType<typeof getStats>>>>];

export const statsTag = {
  name: "Stats",
  description: "Attempt counts, success and failure, and latency percentiles over time, read from a rollup the outcome writes keep.",
} as const;

export const statsSchemas = { StatsSeries: output(StatsSeries) };
