import { OverviewScreen } from "@/components/dashboard/overview/overview-screen";
import { currentOperator } from "@/lib/auth/current-operator";
import { readBacklog } from "@/lib/deliveries/read-backlog";
import { readConsumerLoad } from "@/lib/deliveries/read-consumer-load";
import { endpointHealthCounts } from "@/lib/endpoints/health-counts";
import { openCtx } from "../../lib/open-ctx";

export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  const operator = await currentOperator();
  // The layout has already sent a signed-out visitor to /login.
  if (!operator) return null;
  // The page is an edge: it makes the ctx, as the signed-in operator, and passes it down.
  const ctx = openCtx({ type: "operator", id: operator.id, role: operator.role });
  const [counts, backlog, load] = await Promise.all([endpointHealthCounts(ctx), readBacklog(ctx), readConsumerLoad(ctx.db, { top: 8 })]);
  return <OverviewScreen counts={counts} backlog={backlog} load={load} />;
}
