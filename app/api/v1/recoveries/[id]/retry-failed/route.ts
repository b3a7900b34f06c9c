import { RetryFailedInput, retryFailedItems } from "@/lib/recoveries";
import { json, parseOptionalBody } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";

export const POST = withApiKey(async ({ req, params, ctx }) =>
  json(await retryFailedItems({ ctx, id: params.id!, input: await parseOptionalBody(req, RetryFailedInput) }), 202),
);
