import { otherMethods } from "@/lib/http/methods";
import { json, parseOptionalBody } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { CreatePortalLinkInput, createPortalLink } from "@/lib/portal";
import { CONSUMER } from "@/lib/openapi/params";

export const POST = withApi(async ({ req, params, ctx }) =>
  json(await createPortalLink({ ctx, ref: params.consumer!, input: await parseOptionalBody(req, CreatePortalLinkInput) }), 201), {
  portal: false,
  role: "write",
  doc: {
    operationId: "createPortalLink",
    summary: "Mint a one-time portal link",
    description: "Answers `{url, expires_at}`; the url carries a one-time `pt_` token in its fragment (`…/portal#token=pt_…`).",
    tag: "Portal",
    params: CONSUMER,
    body: { schema: CreatePortalLinkInput, required: false },
    success: { status: 201, description: "`{url, expires_at}`." },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
