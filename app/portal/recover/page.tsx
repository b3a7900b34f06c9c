import { RecoverScreen } from "@/components/portal/recover/recover-screen";

export default function PortalRecoverPage() {
  return <RecoverScreen />;
}
