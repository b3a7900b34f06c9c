import { CreateApiKeyInput, createApiKey, listApiKeys } from "@/lib/api-keys";
import { json, parseBody, parseQuery } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";

export const POST = withApiKey(async ({ req, ctx }) =>
  json(await createApiKey(ctx.db, await parseBody(req, CreateApiKeyInput), ctx.actor), 201),
);

export const GET = withApiKey(async ({ req, ctx }) => json(await listApiKeys(ctx, parseQuery(req, PageQuery))));

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
