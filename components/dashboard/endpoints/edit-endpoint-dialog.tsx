"use client";

import { Pencil } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { toast } from "sonner";
import { useErrorText } from "../../shared/error-message";
import type { Endpoint } from "../../shared/resources";
import { Button } from "../../ui/button";
import { Dialog, DialogContent, DialogTrigger } from "../../ui/dialog";
import { Input, Textarea } from "../../ui/input";
import { Field } from "../../ui/label";
import { useUpdateEndpoint, type EndpointPatch } from "../../shared/queries/endpoints";

type Draft = { url: string; description: string; eventTypes: string; headers: string; cap: string; rate: string };

const toDraft = (e: Endpoint): Draft => ({
  url: e.url,
  description: e.description,
  eventTypes: e.event_types?.join(", ") ?? "",
  headers: Object.entries(e.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n"),
  cap: String(e.max_concurrency),
  rate: e.rate_limit_per_second === null ? "" : String(e.rate_limit_per_second),
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

export function EditEndpointDialog({ endpoint, canWrite }: { endpoint: Endpoint; canWrite: boolean }) {
  const t = useTranslations("endpoints.edit");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Draft>(() => toDraft(endpoint));
  const [headerError, setHeaderError] = useState<string | undefined>();
  const update = useUpdateEndpoint(endpoint.id);
  const set = (key: keyof Draft) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: event.target.value }));

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setDraft(toDraft(endpoint));
        update.reset();
        setHeaderError(undefined);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="secondary" disabled={!canWrite} title={canWrite ? undefined : t("viewerNote")}>
          <Pencil aria-hidden className="h-4 w-4" />
          {t("open")}
        </Button>
      </DialogTrigger>
      <DialogContent title={t("title")} closeLabel={common("close")}>
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            const headers = parseHeaders(draft.headers);
            if (!headers) return setHeaderError(t("headersInvalid"));
            const types = draft.eventTypes.split(/[\s,]+/).filter(Boolean);
            const patch: EndpointPatch = {
              url: draft.url.trim(),
              description: draft.description,
              event_types: types.length ? types : null,
              headers,
              max_concurrency: draft.cap.trim() ? Number(draft.cap) : null,
              rate_limit_per_second: draft.rate.trim() ? Number(draft.rate) : null,
            };
            update.mutate(patch, {
              onSuccess: () => {
                toast.success(t("saved"));
                setOpen(false);
              },
              onError: (error) => toast.error(errorText(error)),
            });
          }}
        >
          <Field id="endpoint-url" label={t("url")}>
            <Input id="endpoint-url" type="url" value={draft.url} onChange={set("url")} required maxLength={2048} />
          </Field>
          <Field id="endpoint-description" label={t("description")}>
            <Input id="endpoint-description" value={draft.description} onChange={set("description")} maxLength={2000} />
          </Field>
          <Field id="endpoint-event-types" label={t("eventTypes")} hint={t("eventTypesHint")}>
            <Input id="endpoint-event-types" value={draft.eventTypes} onChange={set("eventTypes")} aria-describedby="endpoint-event-types-hint" />
          </Field>
          <Field id="endpoint-headers" label={t("headers")} hint={t("headersHint")} error={headerError}>
            <Textarea id="endpoint-headers" value={draft.headers} onChange={set("headers")} aria-describedby="endpoint-headers-hint" aria-invalid={headerError ? true : undefined} />
          </Field>
          <div className="grid grid-cols-2 gap-3">
            <Field id="endpoint-cap" label={t("cap")}>
              <Input id="endpoint-cap" type="number" min={1} max={1000} value={draft.cap} onChange={set("cap")} />
            </Field>
            <Field id="endpoint-rate" label={t("rate")} hint={t("rateHint")}>
              <Input id="endpoint-rate" type="number" min={1} max={100000} value={draft.rate} onChange={set("rate")} aria-describedby="endpoint-rate-hint" />
            </Field>
          </div>
          {update.error ? (
            <p role="alert" className="text-sm text-danger">
              {errorText(update.error)}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {common("cancel")}
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? common("saving") : common("save")}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
