import { input, output, type Assert, type Item, type Same } from "../openapi/operation";

import type { createApiKey } from "./create-api-key";
import type { listApiKeys } from "./queries";
import { ApiKey, CreateApiKeyInput, CreatedApiKey } from "./schemas";

// The documented answers must be the ones the code produces: these fail to compile on drift.
type _DocumentedAnswersMatch = [Assert<Same<ApiKey, Item<typeof listApiKeys>>>, Assert<Same<CreatedApiKey, Awaited<ReturnType<typeof createApiKey>>>>];

// This domain's part of the OpenAPI document, merged by lib/api-document/document.ts.
export const apiKeyTag = { name: "API keys", description: "Credentials for your own code. A key is shown once, when created, and kept only as a hash." } as const;

export const apiKeySchemas = {
  ApiKey: output(ApiKey),
  CreatedApiKey: output(CreatedApiKey),
  CreateApiKeyInput: input(CreateApiKeyInput),
};
