import { revokeApiKey } from "@/lib/api-keys";
import { noContent } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";

export const DELETE = withApiKey(async ({ params, ctx }) => {
  await revokeApiKey(ctx.db, { ref: params.id! }, ctx.actor);
  return noContent();
});
