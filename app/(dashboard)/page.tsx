import { NotYetAvailable } from "@/components/dashboard/not-yet-available";

export default function OverviewPage() {
  return <NotYetAvailable section="overview" />;
}
