import { PortalEndpointDetailScreen } from "@/components/portal/endpoints/endpoint-detail-screen";

export default async function PortalEndpointPage({ params }: { params: Promise<{ id: string }> }) {
  return <PortalEndpointDetailScreen id={decodeURIComponent((await params).id)} />;
}
