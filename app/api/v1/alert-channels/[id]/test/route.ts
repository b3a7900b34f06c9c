import { testAlertChannel } from "@/lib/alerts";
import { json } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";

export const POST = withApiKey(async ({ params, ctx }) => json(await testAlertChannel({ ctx, id: params.id! }), 202));
