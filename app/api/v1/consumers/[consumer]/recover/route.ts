import { CreateRecoveryInput, createRecovery } from "@/lib/recoveries";
import { json, parseBody } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { CONSUMER } from "@/lib/openapi/params";
import { Recovery, RecoveryDryRun } from "@/lib/recoveries/schemas";

export const POST = withApi(async ({ req, params, ctx }) => {
  const result = await createRecovery({ ctx, target: { consumer: params.consumer! }, input: await parseBody(req, CreateRecoveryInput) });
  return "dryRun" in result ? json(result.dryRun) : json(result.recovery, 202);
}, {
  portal: "recover",
  role: "write",
  doc: {
    operationId: "recoverConsumer",
    summary: "Recover a consumer's failed deliveries",
    description: "As for one endpoint, over every active endpoint of the consumer. Freezes the scope into one item per delivery and starts the run (202). With `dry_run: true` it answers 200 with `RecoveryDryRun` — the exact count, per endpoint, and a sample — and writes nothing. Deliveries an active run holds are left out.",
    tag: "Recoveries",
    params: CONSUMER,
    body: { schema: CreateRecoveryInput },
    success: { status: 202, description: "The run, planned.", schema: Recovery },
    also: [{ status: 200, description: "The dry run's count; nothing written.", schema: RecoveryDryRun }],
    errors: { 404: "`not_found`: no such consumer." },
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
