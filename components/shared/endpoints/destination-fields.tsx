"use client";

import { useTranslations } from "next-intl";
import type { ComponentProps } from "react";
import { ENDPOINT_KINDS, shownTarget, type EndpointKind } from "../destinations";
import { fieldError } from "../error-message";
import type { Endpoint } from "../resources";
import { Input } from "../../ui/input";
import { Field } from "../../ui/label";
import { RadioCards } from "../../ui/radio-cards";
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
    <RadioCards
      legend={t("kind")}
      name="endpoint-kind"
      options={ENDPOINT_KINDS.map((kind) => ({ value: kind, label: t(`kinds.${kind}`), description: t(`kindDescriptions.${kind}`) }))}
      value={value}
      onChange={onChange}
      error={error}
      testId="kind-picker"
    />
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
  /** One field of the target: `field` is its name in the API's target, whose refusal shows beside it. */
  const input = (key: keyof BrokerDraft, field: string, label: string, hint: string | undefined, props: ComponentProps<"input">) => {
    // "endpoint-url" is an http endpoint's URL field: a broker's is "endpoint-broker-url".
    const id = field === "url" ? "endpoint-broker-url" : `endpoint-${field.replace("_", "-")}`;
    const problem = fieldError(error, `target.${field}`);
    return (
      <Field id={id} label={label} hint={hint} error={problem}>
        <Input
          id={id}
          value={draft[key]}
          onChange={(event) => onChange({ ...draft, [key]: event.target.value })}
          aria-describedby={problem ? `${id}-error` : hint ? `${id}-hint` : undefined}
          aria-invalid={problem ? true : undefined}
          {...props}
        />
      </Field>
    );
  };
  const text = { className: "font-mono", spellCheck: false, autoComplete: "off" };
  return (
    <>
      {input("url", "url", t(`brokerUrl.${kind}`), stored ? t("brokerUrlMaskedHint") : t(`brokerUrlHints.${kind}`), {
        ...text,
        required: true,
        maxLength: 2048,
        placeholder: kind === "amqp" ? "amqps://user:password@rabbit.example.com:5671/vhost" : "rediss://user:password@redis.example.com:6380/0",
      })}
      {kind === "amqp" ? (
        <div className="grid gap-3 sm:grid-cols-2">
          {input("exchange", "exchange", t("exchange"), t("exchangeHint"), { ...text, maxLength: 255 })}
          {input("routingKey", "routing_key", t("routingKey"), t("routingKeyHint"), { ...text, maxLength: 255 })}
        </div>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          {input("stream", "stream", t("stream"), undefined, { ...text, required: true, maxLength: 1024 })}
          {input("maxLen", "max_len", t("maxLen"), t("maxLenHint"), { type: "number", min: 1, max: 1_000_000_000 })}
        </div>
      )}
    </>
  );
}
