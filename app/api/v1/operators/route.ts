import { json, parseBody, parseQuery } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { CreateOperatorInput, createOperator, listOperators } from "@/lib/operators";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";

export const POST = withApiKey(async ({ req, ctx }) =>
  json(await createOperator({ ctx, input: await parseBody(req, CreateOperatorInput) }), 201),
);

export const GET = withApiKey(async ({ req, ctx }) => json(await listOperators(ctx, parseQuery(req, PageQuery))));

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
