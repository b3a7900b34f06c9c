import { MessageAttemptsQuery, listMessageAttempts } from "@/lib/attempts/queries";
import { json, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";
import { MESSAGE } from "@/lib/openapi/params";
import { Attempt } from "@/lib/attempts/schemas";

export const GET = withApi(async ({ req, params, ctx }) =>
  json(await listMessageAttempts(ctx, params.id!, parseQuery(req, PageQuery.extend(MessageAttemptsQuery.shape)))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "listMessageAttempts",
    summary: "List a message's attempts",
    tag: "Attempts",
    params: MESSAGE,
    query: PageQuery.extend(MessageAttemptsQuery.shape),
    success: { status: 200, description: "A page of attempts, newest first.", schema: Attempt, list: true },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
