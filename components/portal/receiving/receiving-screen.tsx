"use client";

import { ChevronRight } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReceivingPolicy, ReceivingSample } from "@/lib/receiving/schemas";
import { EndpointStateBadge } from "../../shared/endpoint-state-badge";
import { ErrorMessage } from "../../shared/error-message";
import { useConsumerEndpoints } from "../../shared/queries/consumers";
import { Card } from "../../ui/card";
import { Skeleton } from "../../ui/skeleton";
import { usePortalSession } from "../session-context";
import { PollingSection, ReceiverChecklist, VerifySection } from "./receiving-guide";
import { RequestHeaders } from "./request-headers";

/** The general guide: example headers, the samples with a stand-in secret, the checklist, and each endpoint's own guide. */
export function ReceivingScreen({ samples, pollingSamples, policy }: { samples: ReceivingSample[]; pollingSamples: ReceivingSample[]; policy: ReceivingPolicy }) {
  const t = useTranslations("receiving");
  const { theme } = usePortalSession();
  return (
    <>
      <div className="mb-6">
        <h1 className="text-xl font-semibold">{t("title")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-muted-foreground">{t("description", { product: theme.name })}</p>
      </div>
      {/* Each endpoint's own guide first: it has the real headers, the secret and the test send. */}
      <div className="mb-4">
        <EndpointGuides />
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <div className="min-w-0 space-y-4 lg:col-span-2">
          <RequestHeaders source={{ kind: "example" }} />
          <VerifySection samples={samples} secret={{ kind: "general" }} />
          <PollingSection samples={pollingSamples} secret={{ kind: "general" }} endpointId={null} />
        </div>
        <div className="min-w-0">
          <ReceiverChecklist policy={policy} />
        </div>
      </div>
    </>
  );
}

function EndpointGuides() {
  const t = useTranslations("receiving");
  const { consumerId } = usePortalSession();
  const endpoints = useConsumerEndpoints(consumerId);
  return (
    <Card className="p-4">
      <h2 className="text-base font-semibold">{t("endpointsTitle")}</h2>
      <p className="mt-1 text-sm text-muted-foreground">{t("endpointsDescription")}</p>
      <div className="mt-3">
        {endpoints.isPending ? (
          <div className="space-y-2" aria-busy="true">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
          </div>
        ) : endpoints.isError ? (
          <ErrorMessage error={endpoints.error} retry={() => endpoints.refetch()} />
        ) : endpoints.data.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {t.rich("noEndpoints", { link: (chunks) => <Link href="/portal" className="font-medium text-primary underline-offset-2 hover:underline">{chunks}</Link> })}
          </p>
        ) : (
          <ul className="divide-y divide-border rounded-md border border-border" aria-label={t("endpointsTitle")}>
            {endpoints.data.data.map((endpoint) => (
              <li key={endpoint.id}>
                <Link
                  href={`/portal/endpoints/${encodeURIComponent(endpoint.id)}/receiving`}
                  className="flex items-center gap-2 px-3 py-2 text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
                >
                  <span className="min-w-0 flex-1 font-mono text-xs break-all">{endpoint.kind === "polling" ? t("pollingEndpoint") : endpoint.url}</span>
                  {endpoint.description ? <span className="hidden max-w-48 truncate text-xs text-muted-foreground md:inline">{endpoint.description}</span> : null}
                  <EndpointStateBadge endpoint={endpoint} />
                  <span className="hidden text-xs font-medium text-primary sm:inline">{t("openGuide")}</span>
                  <ChevronRight aria-hidden className="h-4 w-4 shrink-0 text-muted-foreground" />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
