import { Suspense } from "react";
import { RecoverScreen } from "@/components/portal/recover/recover-screen";

// `?endpoint_id=` preselects the target (useSearchParams needs the boundary).
export default function PortalRecoverPage() {
  return (
    <Suspense>
      <RecoverScreen />
    </Suspense>
  );
}
