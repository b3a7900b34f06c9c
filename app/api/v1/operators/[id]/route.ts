import { noContent } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { deleteOperator } from "@/lib/operators";

export const DELETE = withApiKey(async ({ params, ctx }) => {
  await deleteOperator({ ctx, id: params.id! });
  return noContent();
});
