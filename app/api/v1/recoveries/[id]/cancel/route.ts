import { cancelRecovery } from "@/lib/recoveries";
import { json } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";

export const POST = withApiKey(async ({ params, ctx }) => json(await cancelRecovery(ctx, params.id!)));
