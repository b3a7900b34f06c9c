import { ReceivingScreen } from "@/components/portal/receiving/receiving-screen";
import { getConfig } from "@/lib/config";
import { readPollingSamples, readReceivingSamples, receivingPolicy } from "@/lib/receiving/samples";

// The samples are read from lib/receiving/samples on the server: the text shown is the file the tests run.
export default function PortalReceivingPage() {
  return <ReceivingScreen samples={readReceivingSamples()} pollingSamples={readPollingSamples()} policy={receivingPolicy(getConfig())} />;
}
