import type { Operation } from "../openapi/document";
import { PageQuery } from "../pagination";
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

const KEY = { id: "The key's id (`key_…`)." };

// This domain's part of the OpenAPI document, merged by lib/openapi/document.ts.
export const apiKeyTag = { name: "API keys", description: "Credentials for your own code. A key is shown once, when created, and kept only as a hash." } as const;

export const apiKeySchemas = {
  ApiKey: { schema: ApiKey, io: "output" },
  CreatedApiKey: { schema: CreatedApiKey, io: "output" },
  CreateApiKeyInput: { schema: CreateApiKeyInput, io: "input" },
} as const;

export const apiKeyOperations: Operation[] = [
  {
    method: "post",
    path: "/api-keys",
    operationId: "createApiKey",
    summary: "Create an API key",
    description: "Answers the key itself (`sk_…`) this once; store it now.",
    tag: "API keys",
    body: { schema: "CreateApiKeyInput" },
    success: { status: 201, description: "The new key, with `key` in clear.", schema: "CreatedApiKey" },
  },
  {
    method: "get",
    path: "/api-keys",
    operationId: "listApiKeys",
    summary: "List active API keys",
    tag: "API keys",
    query: PageQuery,
    success: { status: 200, description: "A page of active keys, newest first (never the key itself).", schema: "ApiKey", list: true },
  },
  {
    method: "delete",
    path: "/api-keys/{id}",
    operationId: "revokeApiKey",
    summary: "Revoke an API key",
    description: "The key stops working at once, for every request after this one.",
    tag: "API keys",
    params: KEY,
    success: { status: 204, description: "Revoked." },
    errors: { 404: "`not_found`: no active key with this id." },
  },
];
