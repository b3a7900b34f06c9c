import { Suspense } from "react";
import { RecoveryRunScreen } from "@/components/portal/recover/recovery-run-screen";

// The report's outcome filter lives in the query string (useSearchParams needs the boundary).
export default async function PortalRecoveryPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense>
      <RecoveryRunScreen id={id} />
    </Suspense>
  );
}
