import { CreateRecoveryInput, createRecovery } from "@/lib/recoveries";
import { json, parseBody } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { otherMethods } from "@/lib/http/methods";

export const POST = withApiKey(async ({ req, params, ctx }) => {
  const result = await createRecovery({ ctx, target: { endpoint: params.id! }, input: await parseBody(req, CreateRecoveryInput) });
  return "dryRun" in result ? json(result.dryRun) : json(result.recovery, 202);
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
