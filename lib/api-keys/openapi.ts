
import type { createApiKey } from "./create-api-key";
import type { listApiKeys } from "./queries";
import { ApiKey, CreateApiKeyInput, CreatedApiKey } from "./schemas";

// The documented answers must be the ones the code produces: these fail to compile on drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type _DocumentedAnswersMatch = [
  Assert<Same<ApiKey, Awaited<ReturnType<typeof listApiKeys>>["data"][number]>>,
  Assert<Same<CreatedApiKey, Awaited<ReturnType<typeof createApiKey>>>>,
];

// This domain's part of the OpenAPI document, merged by lib/openapi/document.ts.
export const apiKeyTag = { name: "API keys", description: "Credentials for your own code. A key is shown once, when created, and kept only as a hash." } as const;

export const apiKeySchemas = {
  ApiKey: { schema: ApiKey, io: "output" },
  CreatedApiKey: { schema: CreatedApiKey, io: "output" },
  CreateApiKeyInput: { schema: CreateApiKeyInput, io: "input" },
} as const;
