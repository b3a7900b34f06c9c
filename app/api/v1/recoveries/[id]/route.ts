import { getRecovery } from "@/lib/recoveries";
import { json } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { otherMethods } from "@/lib/http/methods";

export const GET = withApiKey(async ({ params, ctx }) => json(await getRecovery(ctx, params.id!)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
