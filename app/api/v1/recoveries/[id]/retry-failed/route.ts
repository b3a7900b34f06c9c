import { RetryFailedInput, retryFailedItems } from "@/lib/recoveries";
import { json, parseOptionalBody } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { otherMethods } from "@/lib/http/methods";

export const POST = withApiKey(async ({ req, params, ctx }) =>
  json(await retryFailedItems({ ctx, id: params.id!, input: await parseOptionalBody(req, RetryFailedInput) }), 202),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
