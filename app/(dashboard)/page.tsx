import { OverviewScreen } from "@/components/dashboard/overview/overview-screen";
import { currentOperator } from "@/lib/auth/current-operator";
import { endpointHealthCountsFor } from "@/lib/endpoints/health-counts";

export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  const operator = await currentOperator();
  // The layout has already sent a signed-out visitor to /login.
  const counts = operator ? await endpointHealthCountsFor(operator) : { failing: 0, circuit_open: 0, auto_disabled: 0 };
  return <OverviewScreen counts={counts} />;
}
