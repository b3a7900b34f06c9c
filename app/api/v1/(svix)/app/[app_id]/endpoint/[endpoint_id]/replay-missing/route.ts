import { json } from "@/lib/http/request";
import { RecoverIn, recoverSvixEndpoint } from "@/lib/svix/endpoints";
import { SVIX_ENDPOINT, RecoverOut } from "@/lib/svix/openapi";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const POST = svixRoute(async ({ params, ctx, body }) => json(await recoverSvixEndpoint(ctx, params.app_id!, params.endpoint_id!, body, true), 202), {
  body: RecoverIn,
  portal: "recover",
  role: "write",
  doc: {
    operationId: "svixReplayMissing",
    summary: "Replay what an endpoint never got (Svix: endpoint.replayMissing)",
    description: "A recovery run that also sends messages of the window the endpoint never got (`include_never_attempted`), its failed ones too; poll it with `GET /background-task/{id}`.",
    params: SVIX_ENDPOINT,
    body: { schema: RecoverIn },
    success: { status: 202, description: "The task, running.", schema: RecoverOut },
    errors: { 409: "`conflict`: the endpoint is disabled; enable it first." },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });
