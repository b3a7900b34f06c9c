import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { ENDPOINT } from "@/lib/openapi/params";
import { PollStatus, pollStatus } from "@/lib/polling";

export const GET = withApi(async ({ params, ctx }) => json(await pollStatus(ctx, params.id!)), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "getPollStatus",
    summary: "Where a polling endpoint's readers stand",
    description:
      "When it was last polled, its committed position (the last message a poll gave past it), its lag — the messages after the position its event types and channels take, counted up to 10,000 (`lag_capped`), before its payload filter — and the oldest one's age, and its tokens (never the tokens themselves).",
    tag: "Polling",
    params: ENDPOINT,
    success: { status: 200, description: "The endpoint's polling state.", schema: PollStatus },
    errors: { 409: "`not_polling`: the endpoint's kind is not `polling`." },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
