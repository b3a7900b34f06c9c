"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { Input, Select } from "../../ui/input";
import { Field, Label } from "../../ui/label";
import { useErrorText } from "../error-message";
import { isoToLocalInput, localInputToIso } from "../local-datetime";
import { ConsumerPicker, EndpointPicker } from "../pickers";
import { useDryRun, useStartRecovery, type RecoverInput, type Target } from "../queries/recoveries";
import type { Recovery } from "../types";
import { SINCE_PRESETS, type SincePreset } from "./presets";

type Form = {
  kind: Target["kind"];
  id: string;
  preset: SincePreset;
  since: string;
  until: string;
  eventTypes: string;
  failed: boolean;
  canceled: boolean;
  neverAttempted: boolean;
  rate: string;
  canary: string;
  stopRatio: string;
};

function toInput(form: Form, now: number): RecoverInput {
  const since = form.preset === "custom" ? localInputToIso(form.since) : new Date(now - SINCE_PRESETS[form.preset]).toISOString();
  const statuses = [form.failed ? "failed" : null, form.canceled ? "canceled" : null].filter((s): s is "failed" | "canceled" => s !== null);
  const eventTypes = form.eventTypes.split(",").map((s) => s.trim()).filter(Boolean);
  const number = (text: string) => (text.trim() === "" ? undefined : Number(text));
  return {
    since,
    until: form.preset === "custom" && form.until ? localInputToIso(form.until) : undefined,
    event_types: eventTypes.length ? eventTypes : undefined,
    statuses: statuses.length ? statuses : undefined,
    include_never_attempted: form.neverAttempted || undefined,
    rate_per_second: number(form.rate),
    canary: number(form.canary),
    stop_if_failure_ratio: form.stopRatio.trim() === "" ? undefined : Number(form.stopRatio) / 100,
  };
}

/**
 * Scope a run, see what it would resend (a dry run writes nothing), then start it. The dashboard
 * chooses the target and tunes the rate; the portal's target is its own consumer, at the defaults.
 * Who may do what is the caller's to say, with the reason shown; the server decides again.
 */
export function RecoveryForm({
  target: fixed,
  initialTarget,
  choices,
  tuning,
  cannotPreview,
  cannotStart,
  onStarted,
}: {
  /** A target the viewer cannot change (the portal's consumer); without it the form asks. */
  target?: Target;
  initialTarget?: Target;
  /** Targets to pick from by name (the portal's consumer and each of its endpoints), instead of searching for one. */
  choices?: { target: Target; label: string }[];
  /** Whether to offer rate, canary and stop ratio. */
  tuning: boolean;
  cannotPreview?: string;
  cannotStart?: string;
  onStarted: (recovery: Recovery) => void;
}) {
  const t = useTranslations("recoveryRuns.create");
  const errorText = useErrorText();
  // Lazy: the custom range starts 24 h back from when the screen opened, not from each render.
  const [form, setForm] = useState<Form>(() => ({
    kind: initialTarget?.kind ?? "consumer",
    id: initialTarget?.id ?? "",
    preset: "24h",
    since: isoToLocalInput(new Date(Date.now() - SINCE_PRESETS["24h"])),
    until: "",
    eventTypes: "",
    failed: true,
    canceled: false,
    neverAttempted: false,
    rate: "",
    canary: "",
    stopRatio: "",
  }));
  // The preview is of one exact scope: the start sends the same input, with its since frozen.
  const [previewed, setPreviewed] = useState<{ target: Target; input: RecoverInput } | null>(null);
  const dryRun = useDryRun();
  const start = useStartRecovery();
  const change = (next: Partial<Form>) => {
    setForm({ ...form, ...next });
    setPreviewed(null);
    dryRun.reset();
  };
  const target: Target = fixed ?? { kind: form.kind, id: form.id.trim() };
  const bind = (key: "since" | "until" | "eventTypes" | "rate" | "canary" | "stopRatio") => ({ id: `recover-${key}`, value: form[key], onChange: (e: { target: { value: string } }) => change({ [key]: e.target.value }) });
  const check = (key: "failed" | "canceled" | "neverAttempted") => ({ id: `recover-${key}`, type: "checkbox", checked: form[key], onChange: (e: { target: { checked: boolean } }) => change({ [key]: e.target.checked }), className: "h-4 w-4 accent-primary" });

  return (
    <Card className="max-w-3xl p-5">
      <form
        className="space-y-5"
        onSubmit={(event) => {
          event.preventDefault();
          const input = toInput(form, Date.now());
          dryRun.mutate({ target, input }, { onSuccess: () => setPreviewed({ target, input }), onError: (error) => toast.error(errorText(error)) });
        }}
      >
        {fixed ? null : choices ? (
          <Field id="recover-target" label={t("target")}>
            <Select
              id="recover-target"
              value={`${form.kind}:${form.id}`}
              onChange={(e) => {
                const [kind, ...id] = e.target.value.split(":");
                change({ kind: kind as Target["kind"], id: id.join(":") });
              }}
            >
              {choices.map((c) => (
                <option key={`${c.target.kind}:${c.target.id}`} value={`${c.target.kind}:${c.target.id}`}>
                  {c.label}
                </option>
              ))}
            </Select>
          </Field>
        ) : (
          <fieldset className="grid gap-4 sm:grid-cols-3">
            <legend className="mb-2 text-sm font-semibold">{t("what")}</legend>
            <Field id="recover-kind" label={t("targetKind")}>
              <Select id="recover-kind" value={form.kind} onChange={(e) => change({ kind: e.target.value as Target["kind"], id: "" })}>
                <option value="consumer">{t("kinds.consumer")}</option>
                <option value="endpoint">{t("kinds.endpoint")}</option>
              </Select>
            </Field>
            <div className="sm:col-span-2">
              <Field id="recover-id" label={form.kind === "consumer" ? t("consumer") : t("endpoint")}>
                {form.kind === "consumer" ? (
                  <ConsumerPicker key="consumer" id="recover-id" value={form.id} onChange={(id) => change({ id })} />
                ) : (
                  <EndpointPicker key="endpoint" id="recover-id" value={form.id} onChange={(id) => change({ id })} />
                )}
              </Field>
            </div>
          </fieldset>
        )}
        <fieldset className="grid gap-4 sm:grid-cols-3">
          <legend className="mb-2 text-sm font-semibold">{t("when")}</legend>
          <Field id="recover-preset" label={t("since")}>
            <Select id="recover-preset" value={form.preset} onChange={(e) => change({ preset: e.target.value as SincePreset })}>
              {(["1h", "8h", "24h", "7d", "custom"] as const).map((p) => (
                <option key={p} value={p}>
                  {t(`presets.${p}`)}
                </option>
              ))}
            </Select>
          </Field>
          {form.preset === "custom" ? (
            <>
              <Field id="recover-since" label={t("from")}>
                <Input type="datetime-local" {...bind("since")} required />
              </Field>
              <Field id="recover-until" label={t("until")} hint={t("untilHint")}>
                <Input type="datetime-local" {...bind("until")} aria-describedby="recover-until-hint" />
              </Field>
            </>
          ) : null}
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="mb-2 text-sm font-semibold">{t("which")}</legend>
          <Field id="recover-eventTypes" label={t("eventTypes")} hint={t("eventTypesHint")}>
            <Input {...bind("eventTypes")} placeholder="invoice.paid, invoice.failed" aria-describedby="recover-eventTypes-hint" />
          </Field>
          <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            {(["failed", "canceled", "neverAttempted"] as const).map((key) => (
              <div key={key} className="flex items-center gap-2">
                <input {...check(key)} />
                <Label htmlFor={`recover-${key}`} className="font-normal">
                  {t(`statuses.${key}`)}
                </Label>
              </div>
            ))}
          </div>
        </fieldset>
        {tuning ? (
          <fieldset className="grid gap-4 sm:grid-cols-3">
            <legend className="mb-2 text-sm font-semibold">{t("how")}</legend>
            <Field id="recover-rate" label={t("rate")} hint={t("rateHint")}>
              <Input type="number" min={1} max={1000} {...bind("rate")} aria-describedby="recover-rate-hint" />
            </Field>
            <Field id="recover-canary" label={t("canary")} hint={t("canaryHint")}>
              <Input type="number" min={0} max={1000} {...bind("canary")} aria-describedby="recover-canary-hint" />
            </Field>
            <Field id="recover-stopRatio" label={t("stopRatio")} hint={t("stopRatioHint")}>
              <Input type="number" min={0} max={100} {...bind("stopRatio")} aria-describedby="recover-stopRatio-hint" />
            </Field>
          </fieldset>
        ) : null}
        <div className="flex flex-wrap items-center gap-3 border-t border-border pt-4">
          <Button type="submit" variant="secondary" disabled={!!cannotPreview || dryRun.isPending || target.id === ""} title={cannotPreview}>
            {dryRun.isPending ? t("previewing") : t("preview")}
          </Button>
          {previewed && dryRun.data ? (
            <>
              <p role="status" data-testid="dry-run-count" className="text-sm">
                {t("wouldResend", { count: dryRun.data.expected, endpoints: dryRun.data.by_endpoint.length })}
                {dryRun.data.already_in_recovery > 0 ? ` ${t("alreadyInRecovery", { count: dryRun.data.already_in_recovery })}` : ""}
              </p>
              <Button
                disabled={!!cannotStart || start.isPending || dryRun.data.expected === 0}
                title={cannotStart}
                onClick={() =>
                  start.mutate(previewed, {
                    onSuccess: (recovery) => {
                      toast.success(t("started"));
                      onStarted(recovery);
                    },
                    onError: (error) => toast.error(errorText(error)),
                  })
                }
              >
                {t("start", { count: dryRun.data.expected })}
              </Button>
            </>
          ) : (
            <p className="text-sm text-muted-foreground">{t("previewFirst")}</p>
          )}
        </div>
        {cannotStart ? <p className="text-sm text-muted-foreground">{cannotStart}</p> : null}
      </form>
    </Card>
  );
}
