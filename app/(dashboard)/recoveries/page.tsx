import { NotYetAvailable } from "@/components/dashboard/not-yet-available";

export default function Page() {
  return <NotYetAvailable section="recoveries" />;
}
