import { pauseRecovery } from "@/lib/recoveries";
import { json } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";

export const POST = withApiKey(async ({ params, ctx }) => json(await pauseRecovery(ctx, params.id!)));
