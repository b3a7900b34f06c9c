import type { z } from "zod";
import { input, output, type Assert, type Item, type Same } from "../openapi/operation";

import type { getEndpointSecret } from "./get-endpoint-secret";
import type { rotateEndpointSecret } from "./rotate-endpoint-secret";
import type { searchEndpoints } from "./queries";
import type { testFilter } from "./test-filter";
import type { listLines } from "./list-lines";
import type { updateEndpoint } from "./update-endpoint";
import { CreateEndpointInput, Endpoint, EndpointLines, FilterTestResult, TestFilterInput, EndpointSecret, EndpointStats, EndpointWithConsumer, RotateSecretInput, SendTestInput, TestQueued, UpdatedEndpoint, UpdateEndpointInput } from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/api-document/document.ts.
type _DocumentedAnswersMatch = [
  Assert<Same<z.infer<typeof EndpointSecret>, Awaited<ReturnType<typeof getEndpointSecret>>>>,
  Assert<Same<z.infer<typeof EndpointSecret>, Awaited<ReturnType<typeof rotateEndpointSecret>>>>,
  Assert<Same<z.infer<typeof EndpointWithConsumer>, Item<typeof searchEndpoints>>>,
  Assert<Same<z.infer<typeof UpdatedEndpoint>, Awaited<ReturnType<typeof updateEndpoint>>>>,
  Assert<Same<z.infer<typeof FilterTestResult>, Awaited<ReturnType<typeof testFilter>>>>,
  Assert<Same<z.infer<typeof EndpointLines>, Awaited<ReturnType<typeof listLines>>>>,
];

export const endpointTag = { name: "Endpoints", description: "Webhook URLs of a consumer, with their signing secrets and delivery state." } as const;

export const endpointSchemas = {
  Endpoint: output(Endpoint),
  UpdatedEndpoint: output(UpdatedEndpoint),
  EndpointWithConsumer: output(EndpointWithConsumer),
  CreateEndpointInput: input(CreateEndpointInput),
  UpdateEndpointInput: input(UpdateEndpointInput),
  SendTestInput: input(SendTestInput),
  TestQueued: output(TestQueued),
  TestFilterInput: input(TestFilterInput),
  FilterTestResult: output(FilterTestResult),
  EndpointLines: output(EndpointLines),
  RotateSecretInput: input(RotateSecretInput),
  EndpointSecret: output(EndpointSecret),
  EndpointStats: output(EndpointStats),
};

