import { revokeApiKey } from "@/lib/api-keys";
import { ignoreBody, noContent } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { otherMethods } from "@/lib/http/methods";

export const DELETE = withApiKey(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  await revokeApiKey(ctx.db, { ref: params.id! }, ctx.actor);
  return noContent();
});

export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
