import { MessageAttemptsQuery, listMessageAttempts } from "@/lib/attempts/queries";
import { json, parseQuery } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";

export const GET = withApiKey(async ({ req, params, ctx }) =>
  json(await listMessageAttempts(ctx, params.id!, parseQuery(req, PageQuery.extend(MessageAttemptsQuery.shape)))),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
