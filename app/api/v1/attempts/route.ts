import { ListAttemptsQuery, listAttempts } from "@/lib/attempts/queries";
import { json, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";
import { Attempt } from "@/lib/attempts/schemas";

export const GET = withApi(async ({ req, ctx }) =>
  json(await listAttempts(ctx, parseQuery(req, PageQuery.extend(ListAttemptsQuery.shape)))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "listAttempts",
    summary: "List attempts",
    tag: "Attempts",
    query: PageQuery.extend(ListAttemptsQuery.shape),
    success: { status: 200, description: "A page of attempts, newest first.", schema: Attempt, list: true },
    errors: { 404: "`not_found`: no such consumer." },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
