import type { z } from "zod";
import { output, type Assert, type Same } from "../openapi/operation";
import type { EndpointStats } from "../endpoints/schemas";
import type { endpointStats } from "./endpoint-stats";
import type { getStats } from "./queries";
import { StatsSeries } from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/api-document/document.ts.
// GET /endpoints/{id}/stats is documented with the endpoints (EndpointStats) and read here, from the rollup.
type _DocumentedAnswersMatch = [
  Assert<Same<z.infer<typeof StatsSeries>, Awaited<ReturnType<typeof getStats>>>>,
  Assert<Same<z.infer<typeof EndpointStats>, Awaited<ReturnType<typeof endpointStats>>>>,
];

export const statsTag = {
  name: "Stats",
  description: "Attempt counts, success and failure, and latency percentiles over time, read from a rollup the outcome writes keep.",
} as const;

export const statsSchemas = { StatsSeries: output(StatsSeries) };
