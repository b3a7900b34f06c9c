"use client";

import { useTranslations } from "next-intl";
import { ENDPOINT_KINDS, shownTarget, type EndpointKind } from "../destinations";
import { fieldError } from "../error-message";
import type { Endpoint } from "../resources";
import { Input } from "../../ui/input";
import { Field } from "../../ui/label";
import type { CreateEndpointInput } from "@/lib/endpoints/schemas";

/** A broker kind's fields as typed: `url` starts as the stored URL, its password masked, on an edit. */
export type BrokerDraft = { url: string; exchange: string; routingKey: string; stream: string; maxLen: string };

export const EMPTY_BROKER: BrokerDraft = { url: "", exchange: "", routingKey: "", stream: "", maxLen: "" };

export function brokerDraftOf(endpoint: Endpoint): BrokerDraft {
  const target = shownTarget(endpoint);
  if (!target) return EMPTY_BROKER;
  return {
    url: target.url,
    exchange: target.exchange ?? "",
    routingKey: target.routing_key ?? "",
    stream: target.stream ?? "",
    maxLen: target.max_len == null ? "" : String(target.max_len),
  };
}

/**
 * Where a non-http endpoint delivers, as the API takes it: the kind, and a broker kind's target.
 * The URL goes back as typed: sent back as it was shown (masked), the server keeps the stored
 * credentials for that same URL (lib/endpoints/check-destination.ts); a new URL brings its own.
 */
export function destinationInput(kind: Exclude<EndpointKind, "http">, broker: BrokerDraft): Pick<CreateEndpointInput, "kind" | "target"> {
  if (kind === "polling") return { kind };
  const url = broker.url.trim();
  if (kind === "amqp") return { kind, target: { url, exchange: broker.exchange.trim(), routing_key: broker.routingKey.trim() } };
  return { kind, target: { url, stream: broker.stream.trim(), max_len: broker.maxLen.trim() ? Number(broker.maxLen) : null } };
}

/** The kind picker: one card per kind, each saying what it does. */
export function KindPicker({ value, onChange, error }: { value: EndpointKind; onChange: (kind: EndpointKind) => void; error?: string }) {
  const t = useTranslations("endpoints.edit");
  return (
    <fieldset className="space-y-2" data-testid="kind-picker">
      <legend className="mb-1.5 text-sm font-medium">{t("kind")}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {ENDPOINT_KINDS.map((kind) => (
          <label key={kind} className="flex cursor-pointer items-start gap-2 rounded-md border border-border p-3 text-sm has-[:checked]:border-primary">
            <input type="radio" name="endpoint-kind" value={kind} checked={value === kind} onChange={() => onChange(kind)} className="mt-0.5 accent-[var(--primary)]" />
            <span>
              <span className="font-medium">{t(`kinds.${kind}`)}</span>
              <span className="block text-xs text-muted-foreground">{t(`kindDescriptions.${kind}`)}</span>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * A broker kind's fields, each with the server's words about it beside it (`error`: the refused
 * request). `stored`: an edit of an endpoint of this kind, whose URL is shown masked.
 */
export function BrokerFields({
  kind,
  draft,
  onChange,
  error,
  stored,
}: {
  kind: "amqp" | "redis_stream";
  draft: BrokerDraft;
  onChange: (draft: BrokerDraft) => void;
  error: unknown;
  stored: boolean;
}) {
  const t = useTranslations("endpoints.edit");
  const set = (key: keyof BrokerDraft) => (event: { target: { value: string } }) => onChange({ ...draft, [key]: event.target.value });
  const problem = (field: string) => fieldError(error, `target.${field}`);
  const described = (id: string, field: string, hint: boolean) => (problem(field) ? `${id}-error` : hint ? `${id}-hint` : undefined);
  const urlHint = stored ? t("brokerUrlMaskedHint") : t(`brokerUrlHints.${kind}`);
  return (
    <>
      <Field id="endpoint-broker-url" label={t(`brokerUrl.${kind}`)} hint={urlHint} error={problem("url")}>
        <Input
          id="endpoint-broker-url"
          value={draft.url}
          onChange={set("url")}
          required
          maxLength={2048}
          autoComplete="off"
          spellCheck={false}
          placeholder={kind === "amqp" ? "amqps://user:password@rabbit.example.com:5671/vhost" : "rediss://user:password@redis.example.com:6380/0"}
          className="font-mono"
          aria-describedby={described("endpoint-broker-url", "url", true)}
          aria-invalid={problem("url") ? true : undefined}
        />
      </Field>
      {kind === "amqp" ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="endpoint-exchange" label={t("exchange")} hint={t("exchangeHint")} error={problem("exchange")}>
            <Input
              id="endpoint-exchange"
              value={draft.exchange}
              onChange={set("exchange")}
              maxLength={255}
              className="font-mono"
              aria-describedby={described("endpoint-exchange", "exchange", true)}
              aria-invalid={problem("exchange") ? true : undefined}
            />
          </Field>
          <Field id="endpoint-routing-key" label={t("routingKey")} hint={t("routingKeyHint")} error={problem("routing_key")}>
            <Input
              id="endpoint-routing-key"
              value={draft.routingKey}
              onChange={set("routingKey")}
              maxLength={255}
              className="font-mono"
              aria-describedby={described("endpoint-routing-key", "routing_key", true)}
              aria-invalid={problem("routing_key") ? true : undefined}
            />
          </Field>
        </div>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="endpoint-stream" label={t("stream")} error={problem("stream")}>
            <Input
              id="endpoint-stream"
              value={draft.stream}
              onChange={set("stream")}
              required
              maxLength={1024}
              className="font-mono"
              aria-describedby={described("endpoint-stream", "stream", false)}
              aria-invalid={problem("stream") ? true : undefined}
            />
          </Field>
          <Field id="endpoint-max-len" label={t("maxLen")} hint={t("maxLenHint")} error={problem("max_len")}>
            <Input
              id="endpoint-max-len"
              type="number"
              min={1}
              max={1_000_000_000}
              value={draft.maxLen}
              onChange={set("maxLen")}
              aria-describedby={described("endpoint-max-len", "max_len", true)}
              aria-invalid={problem("max_len") ? true : undefined}
            />
          </Field>
        </div>
      )}
    </>
  );
}
