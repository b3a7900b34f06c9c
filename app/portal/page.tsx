import { PortalEndpointsScreen } from "@/components/portal/endpoints/endpoints-screen";

export default function PortalEndpointsPage() {
  return <PortalEndpointsScreen />;
}
