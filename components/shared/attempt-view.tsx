"use client";

import { useTranslations } from "next-intl";
import { Badge } from "../ui/badge";
import { brokerOfAttempt } from "./destinations";
import { RelativeTime } from "./relative-time";
import type { Attempt } from "./types";

/**
 * One attempt as the receiver saw it and answered. Everything the receiver sent back is shown as
 * text nodes inside <pre>: React escapes it, so a body holding markup or script stays inert. An
 * attempt into a broker says where it went (the URL masked) and what the broker said, by name.
 */
export function AttemptView({ attempt }: { attempt: Attempt }) {
  const t = useTranslations("logs.attempt");
  const headers = Object.entries(attempt.request_headers ?? {});
  const broker = brokerOfAttempt(attempt.url);
  return (
    <article aria-label={t("label", { number: attempt.attempt_number })} data-testid="attempt" className="rounded-md border border-border p-3 text-sm">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <span className="font-medium">{t("label", { number: attempt.attempt_number })}</span>
        <AttemptOutcome attempt={attempt} />
        <span className="text-muted-foreground">{attempt.duration_ms === null ? "—" : t("duration", { ms: attempt.duration_ms })}</span>
        <Badge>{t.has(`triggers.${attempt.trigger}`) ? t(`triggers.${attempt.trigger}` as "triggers.scheduled") : attempt.trigger}</Badge>
        <span className="ml-auto text-muted-foreground">
          <RelativeTime value={attempt.created_at} />
        </span>
      </div>
      {attempt.error_detail ? <p className="mt-2 text-xs text-muted-foreground">{attempt.error_detail}</p> : null}
      {broker ? (
        <p className="mt-2 font-mono text-xs break-all text-muted-foreground" data-testid="attempt-destination">
          {attempt.url}
        </p>
      ) : null}
      <details className="mt-2">
        <summary className="cursor-pointer text-xs font-medium text-primary">{broker ? t("broker.details") : t("details")}</summary>
        <div className="mt-2 grid gap-3 md:grid-cols-2">
          <section>
            <h4 className="mb-1 text-xs font-semibold text-muted-foreground">{broker ? t("broker.headers") : t("requestHeaders")}</h4>
            <pre className="max-h-60 overflow-auto rounded bg-muted p-2 font-mono text-xs whitespace-pre-wrap break-all">
              {headers.length ? headers.map(([name, value]) => `${name}: ${value}`).join("\n") : t("none")}
            </pre>
          </section>
          <section>
            <h4 className="mb-1 text-xs font-semibold text-muted-foreground">{broker ? t("broker.answer") : t("responseBody")}</h4>
            <pre data-testid="response-body" className="max-h-60 overflow-auto rounded bg-muted p-2 font-mono text-xs whitespace-pre-wrap break-all">
              {attempt.response_body ? attempt.response_body : broker ? t("broker.noAnswer") : t("emptyBody")}
            </pre>
          </section>
        </div>
      </details>
    </article>
  );
}

/**
 * The status code when the receiver answered; what the broker said when it took the message (its
 * publisher confirm, the stream entry's id: lib/destinations/amqp.ts, redis-stream.ts); the kind
 * of error when neither did.
 */
export function AttemptOutcome({ attempt }: { attempt: Pick<Attempt, "success" | "status_code" | "error"> & Partial<Pick<Attempt, "url" | "response_body">> }) {
  const t = useTranslations("logs.attempt");
  const tone = attempt.success ? "success" : "danger";
  if (attempt.status_code !== null) return <Badge tone={tone}>{t("status", { code: attempt.status_code })}</Badge>;
  const broker = brokerOfAttempt(attempt.url);
  if (attempt.success && broker === "amqp") return <Badge tone={tone}>{t("broker.confirmed")}</Badge>;
  if (attempt.success && broker === "redis_stream") return <Badge tone={tone}>{t("broker.added", { id: attempt.response_body ?? "" })}</Badge>;
  const kind = attempt.error ?? "";
  return <Badge tone={tone}>{kind ? (t.has(`errors.${kind}`) ? t(`errors.${kind}` as "errors.timeout") : kind) : t("noAnswer")}</Badge>;
}
