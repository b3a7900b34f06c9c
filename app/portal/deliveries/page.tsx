import { Suspense } from "react";
import { DeliveriesScreen } from "@/components/portal/deliveries/deliveries-screen";

// The log's filters live in the query string (useSearchParams needs the boundary).
export default function PortalDeliveriesPage() {
  return (
    <Suspense>
      <DeliveriesScreen />
    </Suspense>
  );
}
