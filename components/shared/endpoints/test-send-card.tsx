"use client";

import { Send } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { toast } from "sonner";
import { AttemptOutcome } from "../attempt-view";
import { isBrokerKind } from "../destinations";
import { useErrorText } from "../error-message";
import type { Endpoint } from "../resources";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { Input } from "../../ui/input";
import { Field } from "../../ui/label";
import { useSendTest, useTestAttempt } from "../queries/endpoints";
import { useEventTypes } from "../queries/event-types";

/**
 * Sends a real message to this endpoint only, then waits for the worker's attempt and shows the
 * answer. `reason` says why the viewer may not; `messageHref` is where the message's log lives in
 * this app (the dashboard's message page, the portal's deliveries).
 */
export function TestSendCard({ endpoint, reason: refused, messageHref }: { endpoint: Endpoint; reason: string | null; messageHref: (messageId: string) => string }) {
  const t = useTranslations("endpoints.test");
  const attemptText = useTranslations("logs.attempt");
  const errorText = useErrorText();
  const [eventType, setEventType] = useState("");
  const [messageId, setMessageId] = useState<string | null>(null);
  const send = useSendTest(endpoint.id);
  const catalog = useEventTypes();
  const attempts = useTestAttempt(messageId);
  const attempt = attempts.data?.data.find((a) => a.endpoint_id === endpoint.id);
  const reason = refused ?? (endpoint.state !== "active" ? t("disabledNote") : null);
  const broker = isBrokerKind(endpoint.kind);

  return (
    <Card className="p-4">
      <h2 className="mb-1 text-sm font-semibold">{t("title")}</h2>
      <p className="mb-3 text-xs text-muted-foreground">{t("description")}</p>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setMessageId(null);
          send.mutate(eventType.trim() ? { event_type: eventType.trim() } : {}, {
            onSuccess: (queued) => {
              setMessageId(queued.message_id);
              toast.success(t("queued"));
            },
            onError: (error) => toast.error(errorText(error)),
          });
        }}
      >
        <div className="min-w-56 flex-1">
          <Field id="test-event-type" label={t("eventType")} hint={t("eventTypeHint")}>
            <Input
              id="test-event-type"
              value={eventType}
              onChange={(e) => setEventType(e.target.value)}
              placeholder={endpoint.event_types?.[0] ?? "webhook.test"}
              maxLength={200}
              aria-describedby="test-event-type-hint"
              list="test-event-type-options"
            />
            <datalist id="test-event-type-options">
              {(catalog.data?.data ?? [])
                .filter((type) => !endpoint.event_types || endpoint.event_types.includes(type.name))
                .map((type) => (
                  <option key={type.id} value={type.name} />
                ))}
            </datalist>
          </Field>
        </div>
        <Button type="submit" disabled={reason !== null || send.isPending} title={reason ?? undefined} className="mb-5">
          <Send aria-hidden className="h-4 w-4" />
          {t("send")}
        </Button>
      </form>
      {reason ? <p className="mt-1 text-xs text-muted-foreground">{reason}</p> : null}
      {messageId ? (
        <div className="mt-4 rounded-md border border-border p-3 text-sm" aria-live="polite" data-testid="test-result">
          {!attempt ? (
            <p className="text-muted-foreground">{broker ? t("waitingBroker") : t("waiting")}</p>
          ) : (
            <>
              <p className="flex flex-wrap items-center gap-2" data-testid="test-outcome">
                <AttemptOutcome attempt={attempt} />
                {attempt.duration_ms !== null ? <span className="text-muted-foreground">{attemptText("duration", { ms: attempt.duration_ms })}</span> : null}
              </p>
              {attempt.error_detail ? (
                <p className="mt-2 text-xs break-words text-muted-foreground" data-testid="test-error-detail">
                  {attempt.error_detail}
                </p>
              ) : null}
              {/* A broker that refused said so in the error above: there is no body to show beside it. */}
              {broker && !attempt.response_body ? null : (
                <>
                  <p className="mt-2 text-xs text-muted-foreground">{broker ? t("brokerAnswer") : t("responseBody")}</p>
                  {/* The receiver's answer is shown as text, never as markup. */}
                  <pre data-testid="test-response-body" className="mt-1 max-h-48 overflow-auto rounded bg-muted p-2 font-mono text-xs whitespace-pre-wrap break-all">
                    {attempt.response_body || t("emptyBody")}
                  </pre>
                </>
              )}
            </>
          )}
          <Link href={messageHref(messageId)} className="mt-2 inline-block text-xs font-medium text-primary underline-offset-2 hover:underline">
            {t("openMessage")}
          </Link>
        </div>
      ) : null}
    </Card>
  );
}
