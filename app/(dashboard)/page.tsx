import { OverviewScreen } from "@/components/dashboard/overview/overview-screen";
import { currentOperator } from "@/lib/auth/current-operator";
import { readBacklog } from "@/lib/deliveries/read-backlog";
import { endpointHealthCountsFor } from "@/lib/endpoints/health-counts";
import { systemCtx } from "../../lib/open-ctx";

export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  const operator = await currentOperator();
  // The layout has already sent a signed-out visitor to /login.
  if (!operator) return null;
  const [counts, backlog] = await Promise.all([endpointHealthCountsFor(operator), readBacklog(systemCtx())]);
  return <OverviewScreen counts={counts} backlog={backlog} />;
}
