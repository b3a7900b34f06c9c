import { json } from "@/lib/http/request";
import { SVIX_ENDPOINT } from "@/lib/svix/openapi";
import { MessageOut } from "@/lib/svix/messages";
import { svixMethods, svixRoute } from "@/lib/svix/route";
import { EventExampleIn, sendSvixExample } from "@/lib/svix/send-example";

export const POST = svixRoute(async ({ params, ctx, body }) => json(await sendSvixExample(ctx, params.app_id!, params.endpoint_id!, body), 202), {
  body: EventExampleIn,
  portal: "manage_endpoints",
  role: "write",
  doc: {
    operationId: "svixSendExample",
    summary: "Send an event type's example to an endpoint (Svix: endpoint.sendExample)",
    description:
      "Our test send (POST /endpoints/{id}/test) to this endpoint alone: a real message, signed, with the header `webhook-test: true`. " +
      "The payload is the schema's `examples[exampleIndex]` when the schema has such an array, else the event type's example. " +
      "At most `ENDPOINT_TEST_SENDS_PER_MINUTE` per endpoint a minute (429).",
    params: SVIX_ENDPOINT,
    body: { schema: EventExampleIn },
    success: { status: 202, description: "The message sent.", schema: MessageOut },
    errors: { 404: "`not_found`: no such event type.", 409: "`conflict`: the endpoint is disabled." },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });
