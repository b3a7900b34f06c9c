"use client";

import { Pencil, Plus } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { fieldError } from "../error-message";
import { FormDialog } from "../form-dialog";
import type { Endpoint } from "../resources";
import { Input, Textarea } from "../../ui/input";
import { Field } from "../../ui/label";
import { RadioCards } from "../../ui/radio-cards";
import { useCreateEndpoint, useUpdateEndpoint } from "../queries/endpoints";
import type { CreateEndpointInput } from "@/lib/endpoints/schemas";
import { isBrokerKind, knownKind, sends, type EndpointKind } from "../destinations";
import { EventTypePicker } from "./event-type-picker";
import { BrokerFields, brokerDraftOf, destinationInput, EMPTY_BROKER, KindPicker, type BrokerDraft } from "./destination-fields";

type Ordering = Endpoint["ordering"];
type Draft = {
  kind: EndpointKind;
  url: string;
  broker: BrokerDraft;
  description: string;
  eventTypes: string[];
  headers: string;
  cap: string;
  rate: string;
  ordering: Ordering;
  orderingKey: string;
};

const EMPTY: Draft = { kind: "http", url: "", broker: EMPTY_BROKER, description: "", eventTypes: [], headers: "", cap: "", rate: "", ordering: "none", orderingKey: "" };
const ORDERINGS: Ordering[] = ["none", "ordered"];

const toDraft = (e: Endpoint): Draft => ({
  kind: knownKind(e.kind) ?? "http",
  // A broker endpoint's `url` is where it delivers as the log describes it, not an address to post to.
  url: e.kind === "http" ? e.url : "",
  broker: brokerDraftOf(e),
  description: e.description,
  eventTypes: e.event_types ?? [],
  headers: Object.entries(e.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n"),
  cap: String(e.max_concurrency),
  rate: e.rate_limit_per_second === null ? "" : String(e.rate_limit_per_second),
  ordering: e.ordering,
  orderingKey: e.ordering_key ?? "",
});

/** `Name: value` per line, the way headers are written everywhere else. */
function parseHeaders(text: string): Record<string, string> | null {
  const headers: Record<string, string> = {};
  for (const line of text.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const colon = line.indexOf(":");
    if (colon <= 0) return null;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

export type EndpointFormTarget = { kind: "create"; consumer: string } | { kind: "edit"; endpoint: Endpoint };

/**
 * Adds an endpoint to a consumer or edits one, for the dashboard and the portal alike. `reason`
 * says why the viewer may not (the trigger is then disabled and the server would refuse anyway);
 * the concurrency cap is the operator's to set, so the portal leaves it out. The kind picker
 * chooses where it delivers: an http endpoint's fields and request are what they always were; a
 * broker kind's target replaces the URL and headers; a polling endpoint sends nothing, so it has
 * no target, headers, rate, cap or order.
 */
export function EndpointFormDialog({
  target,
  reason,
  withConcurrency = false,
  onCreated,
}: {
  target: EndpointFormTarget;
  reason: string | null;
  withConcurrency?: boolean;
  onCreated?: (endpoint: Endpoint) => void;
}) {
  const t = useTranslations("endpoints.edit");
  const initial = () => (target.kind === "edit" ? toDraft(target.endpoint) : EMPTY);
  const [draft, setDraft] = useState<Draft>(initial);
  const [headerError, setHeaderError] = useState<string | undefined>();
  const create = useCreateEndpoint(target.kind === "create" ? target.consumer : "");
  const update = useUpdateEndpoint(target.kind === "edit" ? target.endpoint.id : "");
  const set = (key: "url" | "description" | "headers" | "cap" | "rate" | "orderingKey") => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: event.target.value }));
  const creating = target.kind === "create";
  const mutation = creating ? create : update;
  const orderingKeyError = fieldError(mutation.error, "ordering_key");
  const urlError = fieldError(mutation.error, "url");
  const storedKind = target.kind === "edit" ? target.endpoint.kind : null;
  const toOtherInput = (kind: Exclude<EndpointKind, "http">): CreateEndpointInput => {
    const input: CreateEndpointInput = { ...destinationInput(kind, draft.broker), description: draft.description, event_types: draft.eventTypes.length ? draft.eventTypes : null };
    if (kind === "polling") return input;
    input.rate_limit_per_second = draft.rate.trim() ? Number(draft.rate) : null;
    input.ordering = draft.ordering;
    if (draft.ordering === "ordered") input.ordering_key = draft.orderingKey.trim() || null;
    if (withConcurrency) input.max_concurrency = draft.cap.trim() ? Number(draft.cap) : null;
    return input;
  };
  const toInput = (): CreateEndpointInput | null => {
    if (draft.kind !== "http") return toOtherInput(draft.kind);
    const headers = parseHeaders(draft.headers);
    if (!headers) {
      setHeaderError(t("headersInvalid"));
      return null;
    }
    setHeaderError(undefined);
    const input: CreateEndpointInput = {
      url: draft.url.trim(),
      description: draft.description,
      event_types: draft.eventTypes.length ? draft.eventTypes : null,
      headers,
      rate_limit_per_second: draft.rate.trim() ? Number(draft.rate) : null,
      ordering: draft.ordering,
    };
    // Back to any order, the stored key stays as it was: choosing "in order" again finds it.
    if (draft.ordering === "ordered") input.ordering_key = draft.orderingKey.trim() || null;
    if (withConcurrency) input.max_concurrency = draft.cap.trim() ? Number(draft.cap) : null;
    // Back to http from another kind: said, since an update keeps the kind stored.
    if (storedKind !== null && storedKind !== "http") input.kind = "http";
    return input;
  };

  return (
    <FormDialog
      title={creating ? t("createTitle") : t("title")}
      icon={creating ? Plus : Pencil}
      trigger={{ label: creating ? t("create") : t("open") }}
      editing={!creating}
      disabledReason={reason}
      mutation={mutation}
      toInput={toInput}
      ready
      successText={() => (creating ? t("created") : t("saved"))}
      onSuccess={onCreated}
      onOpened={() => setDraft(initial())}
      onClosed={() => setHeaderError(undefined)}
    >
      <KindPicker value={draft.kind} onChange={(kind) => setDraft((d) => ({ ...d, kind }))} error={fieldError(mutation.error, "kind")} />
      {draft.kind === "http" ? (
        <Field id="endpoint-url" label={t("url")} hint={creating ? t("urlHint") : undefined} error={urlError}>
          <Input
            id="endpoint-url"
            type="url"
            value={draft.url}
            onChange={set("url")}
            required
            maxLength={2048}
            placeholder="https://example.com/webhooks"
            aria-describedby={urlError ? "endpoint-url-error" : creating ? "endpoint-url-hint" : undefined}
            aria-invalid={urlError ? true : undefined}
          />
        </Field>
      ) : isBrokerKind(draft.kind) ? (
        <BrokerFields kind={draft.kind} draft={draft.broker} onChange={(broker) => setDraft((d) => ({ ...d, broker }))} error={mutation.error} stored={storedKind === draft.kind} />
      ) : (
        <p className="rounded-md bg-muted p-3 text-xs text-muted-foreground" data-testid="polling-note">
          {t("pollingNote")}
        </p>
      )}
      <Field id="endpoint-description" label={t("description")}>
        <Input id="endpoint-description" value={draft.description} onChange={set("description")} maxLength={2000} />
      </Field>
      <EventTypePicker value={draft.eventTypes} onChange={(eventTypes) => setDraft((d) => ({ ...d, eventTypes }))} />
      {draft.kind === "http" ? (
        <Field id="endpoint-headers" label={t("headers")} hint={t("headersHint")} error={headerError}>
          <Textarea
            id="endpoint-headers"
            value={draft.headers}
            onChange={set("headers")}
            placeholder="X-Api-Key: …"
            aria-describedby="endpoint-headers-hint"
            aria-invalid={headerError ? true : undefined}
          />
        </Field>
      ) : null}
      {sends(draft.kind) ? (
        <>
          <div className="grid grid-cols-2 gap-3">
            {withConcurrency ? (
              <Field id="endpoint-cap" label={t("cap")}>
                <Input id="endpoint-cap" type="number" min={1} max={1000} value={draft.cap} onChange={set("cap")} />
              </Field>
            ) : null}
            <Field id="endpoint-rate" label={t("rate")} hint={t("rateHint")}>
              <Input id="endpoint-rate" type="number" min={1} max={100000} value={draft.rate} onChange={set("rate")} aria-describedby="endpoint-rate-hint" />
            </Field>
          </div>
          <RadioCards
            legend={t("ordering")}
            name="endpoint-ordering"
            options={ORDERINGS.map((ordering) => ({ value: ordering, label: t(`orderings.${ordering}`), description: t(`orderingDescriptions.${ordering}`) }))}
            value={draft.ordering}
            onChange={(ordering) => setDraft((d) => ({ ...d, ordering }))}
          />
          {draft.ordering === "ordered" ? (
            <Field id="endpoint-ordering-key" label={t("orderingKey")} hint={t("orderingKeyHint")} error={orderingKeyError}>
              <Input
                id="endpoint-ordering-key"
                value={draft.orderingKey}
                onChange={set("orderingKey")}
                maxLength={256}
                placeholder="data.customer_id"
                className="font-mono"
                aria-describedby={orderingKeyError ? "endpoint-ordering-key-error" : "endpoint-ordering-key-hint"}
                aria-invalid={orderingKeyError ? true : undefined}
              />
            </Field>
          ) : null}
        </>
      ) : null}
    </FormDialog>
  );
}
