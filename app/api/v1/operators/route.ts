import { json, parseBody, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { CreateOperatorInput, createOperator, listOperators } from "@/lib/operators";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";
import { Operator } from "@/lib/operators/schemas";

const ADMIN_ONLY = "`forbidden`: only an admin (or an API key) manages operators.";

export const POST = withApi(async ({ req, ctx }) =>
  json(await createOperator({ ctx, input: await parseBody(req, CreateOperatorInput) }), 201), {
  portal: false,
  role: "admin",
  doc: {
    operationId: "createOperator",
    summary: "Create an operator",
    tag: "Operators",
    body: { schema: CreateOperatorInput },
    success: { status: 201, description: "The new operator (never its password).", schema: Operator },
    errors: { 403: ADMIN_ONLY, 409: "`email_taken`: an operator with this email exists." },
  },
});

export const GET = withApi(async ({ req, ctx }) => json(await listOperators(ctx, parseQuery(req, PageQuery))), {
  portal: false,
  role: "admin",
  doc: {
    operationId: "listOperators",
    summary: "List operators",
    tag: "Operators",
    query: PageQuery,
    success: { status: 200, description: "A page of operators, newest first.", schema: Operator, list: true },
    errors: { 403: ADMIN_ONLY },
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
