import { otherMethods } from "@/lib/http/methods";
import { json, parseOptionalBody } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { CreatePortalLinkInput, createPortalLink } from "@/lib/portal";

export const POST = withApiKey(async ({ req, params, ctx }) =>
  json(await createPortalLink({ ctx, ref: params.consumer!, input: await parseOptionalBody(req, CreatePortalLinkInput) }), 201),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
