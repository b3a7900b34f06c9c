import { ignoreBody, noContent } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { deleteOperator } from "@/lib/operators";
import { otherMethods } from "@/lib/http/methods";

export const DELETE = withApiKey(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  await deleteOperator({ ctx, id: params.id! });
  return noContent();
});

export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
