import { cancelRecovery } from "@/lib/recoveries";
import { ignoreBody, json } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { otherMethods } from "@/lib/http/methods";

export const POST = withApiKey(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  return json(await cancelRecovery(ctx, params.id!));
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
