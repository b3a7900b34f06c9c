"use client";

import { Plus } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { PageHeader } from "../../shared/page-header";
import { ConsumerPicker, EndpointPicker } from "../../shared/pickers";
import { RecoveryList } from "../../shared/recoveries/recovery-list";
import { useUrlFilters } from "../../shared/use-url-filters";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { Select } from "../../ui/input";
import { Field } from "../../ui/label";
import { useOperator } from "../operator-context";

import type { Recovery } from "@/lib/recoveries/schemas";

const runHref = (id: string) => `/recoveries/${id}`;
const endpointHref = (id: string) => `/endpoints/${id}`;
const FILTERS = ["consumer", "endpoint_id", "state"] as const;
const STATES: readonly Recovery["state"][] = ["planned", "canary", "running", "paused", "completed", "canceled"];

/** The runs, filtered in the address by consumer, endpoint and state (the consumer and endpoint pages, and the overview, link here so). */
export function RecoveriesScreen() {
  const t = useTranslations("recoveryRuns");
  const states = useTranslations("logs.recovery.states");
  const { role } = useOperator();
  const { values, set } = useUrlFilters(FILTERS);
  const filtered = Object.values(values).some(Boolean);
  const newButton =
    role === "admin" ? (
      <Button asChild>
        <Link href={values.endpoint_id ? `/recoveries/new?endpoint=${encodeURIComponent(values.endpoint_id)}` : values.consumer ? `/recoveries/new?consumer=${encodeURIComponent(values.consumer)}` : "/recoveries/new"}>
          <Plus aria-hidden className="h-4 w-4" />
          {t("new")}
        </Link>
      </Button>
    ) : null;
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} actions={newButton} />
      {role !== "admin" ? <p className="mb-4 text-sm text-muted-foreground">{t("viewerNote")}</p> : null}
      <Card className="mb-4">
        <div role="search" aria-label={t("filters.label")} className="grid gap-3 p-4 sm:grid-cols-3">
          <Field id="recoveries-consumer" label={t("filters.consumer")}>
            <ConsumerPicker id="recoveries-consumer" value={values.consumer} allowAny onChange={(consumer) => set({ consumer, endpoint_id: consumer ? "" : values.endpoint_id })} />
          </Field>
          <Field id="recoveries-endpoint" label={t("filters.endpoint")}>
            <EndpointPicker id="recoveries-endpoint" value={values.endpoint_id} consumer={values.consumer || undefined} allowAny onChange={(endpoint_id) => set({ endpoint_id })} />
          </Field>
          <Field id="recoveries-state" label={t("filters.state")}>
            <Select id="recoveries-state" value={values.state} onChange={(e) => set({ state: e.target.value })}>
              <option value="">{t("filters.anyState")}</option>
              {STATES.map((s) => (
                <option key={s} value={s}>
                  {states(s)}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      </Card>
      <Card>
        <RecoveryList
          runHref={runHref}
          endpointHref={endpointHref}
          showConsumer
          filters={values}
          empty={
            filtered
              ? {
                  title: t("emptyFilteredTitle"),
                  description: t("emptyFilteredDescription"),
                  action: (
                    <Button variant="secondary" onClick={() => set({ consumer: "", endpoint_id: "", state: "" })}>
                      {t("filters.clear")}
                    </Button>
                  ),
                }
              : { title: t("emptyTitle"), description: t("emptyDescription"), action: newButton }
          }
        />
      </Card>
    </>
  );
}
