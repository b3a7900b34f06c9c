import { EndpointReceivingScreen } from "@/components/portal/receiving/endpoint-receiving-screen";
import { getConfig } from "@/lib/config";
import { readPollingSamples, readReceivingSamples, receivingPolicy } from "@/lib/receiving/samples";

// The samples are read from lib/receiving/samples on the server: the text shown is the file the tests run.
export default async function PortalEndpointReceivingPage({ params }: { params: Promise<{ id: string }> }) {
  return <EndpointReceivingScreen id={decodeURIComponent((await params).id)} samples={readReceivingSamples()} pollingSamples={readPollingSamples()} policy={receivingPolicy(getConfig())} />;
}
