"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { toast } from "sonner";
import { useErrorText } from "../../shared/error-message";
import { useUpdateWeight } from "../../shared/queries/consumers";
import type { Consumer } from "../../shared/resources";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { Input } from "../../ui/input";
import { Field } from "../../ui/label";

/**
 * The consumer's weight: its share of the engine when several consumers have work waiting
 * (docs/delivery.md, "How the engine's work is shared"). `reason` says why the operator may not
 * change it (null: they may).
 */
export function WeightCard({ consumer, reason }: { consumer: Consumer; reason: string | null }) {
  const t = useTranslations("consumers");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const canWrite = reason === null;
  const [draft, setDraft] = useState<string | null>(null);
  const update = useUpdateWeight(consumer.id);
  const value = draft ?? String(consumer.weight ?? 1);
  const parsed = Number(value);
  const valid = /^\d+$/.test(value) && parsed >= 1 && parsed <= 100;

  return (
    <Card className="p-4">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!valid) return;
          update.mutate(parsed, {
            onSuccess: () => {
              setDraft(null);
              toast.success(t("weightSaved"));
            },
            onError: (error) => toast.error(errorText(error)),
          });
        }}
      >
        <Field id="consumer-weight" label={t("weight")} hint={reason ?? t("weightHint")} error={draft !== null && !valid ? t("weightInvalid") : undefined}>
          <Input
            id="consumer-weight"
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            step={1}
            className="w-28"
            value={value}
            onChange={(e) => setDraft(e.target.value)}
            disabled={!canWrite}
            aria-describedby="consumer-weight-hint"
          />
        </Field>
        <div className="mt-3 flex justify-end">
          <Button type="submit" size="sm" disabled={!canWrite || draft === null || !valid || update.isPending}>
            {update.isPending ? common("saving") : common("save")}
          </Button>
        </div>
      </form>
    </Card>
  );
}
