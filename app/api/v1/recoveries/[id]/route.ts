import { getRecovery } from "@/lib/recoveries";
import { json } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";

export const GET = withApiKey(async ({ params, ctx }) => json(await getRecovery(ctx, params.id!)));
