import { DeliveryDetailScreen } from "@/components/portal/deliveries/delivery-detail-screen";

export default async function PortalDeliveryPage({ params }: { params: Promise<{ id: string }> }) {
  return <DeliveryDetailScreen id={(await params).id} />;
}
