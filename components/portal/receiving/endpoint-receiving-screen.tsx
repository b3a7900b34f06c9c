"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReceivingPolicy, ReceivingSample } from "@/lib/receiving/schemas";
import { EndpointStateBadge } from "../../shared/endpoint-state-badge";
import { TestSendCard } from "../../shared/endpoints/test-send-card";
import { useEndpoint } from "../../shared/queries/endpoints";
import { Card } from "../../ui/card";
import { usePortalReasons } from "../endpoints/use-portal-reasons";
import { EndpointGate } from "../endpoints/endpoint-gate";
import { usePortalSession } from "../session-context";
import { useLatestAttempt, useSampleSecret } from "./queries";
import { PollingSection, ReceiverChecklist, VerifySection, type SampleSecret } from "./receiving-guide";
import { RequestHeaders, type HeadersSource } from "./request-headers";

const deliveryHref = (messageId: string) => `/portal/deliveries/${encodeURIComponent(messageId)}`;

/**
 * One endpoint's guide: the headers its latest attempt carried, the samples with its secret
 * filled in (where the link shows secrets), a test send beside them, and the checklist.
 */
export function EndpointReceivingScreen({ id, samples, pollingSamples, policy }: { id: string; samples: ReceivingSample[]; pollingSamples: ReceivingSample[]; policy: ReceivingPolicy }) {
  const t = useTranslations("receiving");
  const { can } = usePortalSession();
  const reasons = usePortalReasons();
  const endpoint = useEndpoint(id);
  const latest = useLatestAttempt(id);
  const mayReadSecret = can("view_secrets");
  const secretQuery = useSampleSecret(id, mayReadSecret && endpoint.isSuccess);
  const endpointHref = `/portal/endpoints/${encodeURIComponent(id)}`;
  return (
    <EndpointGate query={endpoint} back={{ href: endpointHref, label: t("backToEndpoint") }}>
      {(e) => {
        const secret: SampleSecret = !mayReadSecret
        ? { kind: "hidden" }
        : secretQuery.isSuccess
        ? { kind: "filled", secret: secretQuery.data }
        : secretQuery.isError
        ? { kind: "failed" }
        : { kind: "loading" };
        const headers: HeadersSource = latest.isSuccess ? { kind: "latest", attempt: latest.data } : { kind: "loading" };
        const link = "text-sm font-medium text-primary underline-offset-2 hover:underline";
        // A polling endpoint is read, not sent to: its reader instead of a receiver, and no test send.
        const polling = e.kind === "polling";
        return (
          <>
            <div className="mb-6 min-w-0">
              <h1 className="text-xl font-semibold">{t("endpointTitle")}</h1>
              <p className="mt-1 flex flex-wrap items-center gap-2 text-sm">
                <span className="font-mono break-all" data-testid="guide-endpoint-url">
                  {polling ? t("pollingEndpoint") : e.url}
                </span>
                <EndpointStateBadge endpoint={e} />
              </p>
            </div>
            <div className="grid gap-4 lg:grid-cols-3">
              <div className="min-w-0 space-y-4 lg:col-span-2">
                {polling ? (
                  <PollingSection samples={pollingSamples} secret={secret} endpointId={e.id} />
                ) : (
                  <>
                    <RequestHeaders source={headers} />
                    <VerifySection samples={samples} secret={secret} />
                  </>
                )}
              </div>
              <div className="min-w-0 space-y-4">
                {polling ? null : <TestSendCard endpoint={e} reason={reasons.manage} messageHref={deliveryHref} />}
                <Card className="p-4">
                  <h2 className="text-base font-semibold">{t("eventTypesTitle")}</h2>
                  <p className="mt-1 text-sm break-words text-muted-foreground" data-testid="guide-event-types">
                    {e.event_types === null ? t("eventTypesAll") : t("eventTypesSome", { count: e.event_types.length, names: e.event_types.join(", ") })}
                  </p>
                  <Link className={`${link} mt-2 inline-block`} href={`/portal/event-types?endpoint_id=${encodeURIComponent(e.id)}`}>
                    {t("eventTypesLink")}
                  </Link>
                </Card>
                {polling ? null : <ReceiverChecklist policy={policy} />}
              </div>
            </div>
          </>
        );
      }}
    </EndpointGate>
  );
}
