import { CreateApiKeyInput, createApiKey, listApiKeys } from "@/lib/api-keys";
import { json, parseBody, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";
import { CreatedApiKey, ApiKey } from "@/lib/api-keys/schemas";

export const POST = withApi(async ({ req, ctx }) =>
  json(await createApiKey({ ctx, input: await parseBody(req, CreateApiKeyInput) }), 201), {
  portal: false,
  role: "write",
  doc: {
    operationId: "createApiKey",
    summary: "Create an API key",
    description: "Answers the key itself (`sk_…`) this once; store it now.",
    tag: "API keys",
    body: { schema: CreateApiKeyInput },
    success: { status: 201, description: "The new key, with `key` in clear.", schema: CreatedApiKey },
  },
});

export const GET = withApi(async ({ req, ctx }) => json(await listApiKeys(ctx, parseQuery(req, PageQuery))), {
  portal: false,
  role: "read",
  doc: {
    operationId: "listApiKeys",
    summary: "List active API keys",
    tag: "API keys",
    query: PageQuery,
    success: { status: 200, description: "A page of active keys, newest first (never the key itself).", schema: ApiKey, list: true },
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
