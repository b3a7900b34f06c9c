import { RetryFailedInput, retryFailedItems } from "@/lib/recoveries";
import { json, parseOptionalBody } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { RECOVERY } from "@/lib/openapi/params";
import { Recovery } from "@/lib/recoveries/schemas";

export const POST = withApi(async ({ req, params, ctx }) =>
  json(await retryFailedItems({ ctx, id: params.id!, input: await parseOptionalBody(req, RetryFailedInput) }), 202), {
  portal: "recover",
  role: "write",
  doc: {
    operationId: "retryFailedRecoveryItems",
    summary: "Start a new run over a recovery's failed items",
    tag: "Recoveries",
    params: RECOVERY,
    body: { schema: RetryFailedInput, required: false },
    success: { status: 202, description: "The new run, planned.", schema: Recovery },
    errors: { 409: "`invalid_state`: the recovery is still active; it must be completed or canceled." },
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
