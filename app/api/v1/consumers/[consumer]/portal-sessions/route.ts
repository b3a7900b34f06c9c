import { otherMethods } from "@/lib/http/methods";
import { noContent } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { endConsumerPortalSessions } from "@/lib/portal";

export const DELETE = withApiKey(async ({ params, ctx }) => {
  await endConsumerPortalSessions({ ctx, ref: params.consumer! });
  return noContent();
});

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
