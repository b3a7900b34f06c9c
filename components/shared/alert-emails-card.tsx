"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { toast } from "sonner";
import { useErrorText } from "./error-message";
import type { Consumer } from "./resources";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { Textarea } from "../ui/input";
import { Field } from "../ui/label";
import { useUpdateAlertEmails } from "./queries/consumers";

/**
 * The consumer's own alert addresses: they hear when one of their endpoints fails or is disabled.
 * `reason` says why the viewer may not change them (null: they may).
 */
export function AlertEmailsCard({ consumer, reason }: { consumer: Consumer; reason: string | null }) {
  const t = useTranslations("consumers");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const canWrite = reason === null;
  const [draft, setDraft] = useState<string | null>(null);
  const update = useUpdateAlertEmails(consumer.id);
  const value = draft ?? consumer.alert_emails.join("\n");

  return (
    <Card className="p-4">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const emails = value.split(/[\s,]+/).filter(Boolean);
          update.mutate(emails, {
            onSuccess: () => {
              setDraft(null);
              toast.success(t("alertEmailsSaved"));
            },
            onError: (error) => toast.error(errorText(error)),
          });
        }}
      >
        <Field id="alert-emails" label={t("alertEmails")} hint={reason ?? t("alertEmailsHint")}>
          <Textarea
            id="alert-emails"
            className="font-sans text-sm"
            value={value}
            onChange={(e) => setDraft(e.target.value)}
            disabled={!canWrite}
            aria-describedby="alert-emails-hint"
            placeholder="ops@example.com"
          />
        </Field>
        <div className="mt-3 flex justify-end">
          <Button type="submit" size="sm" disabled={!canWrite || draft === null || update.isPending}>
            {update.isPending ? common("saving") : common("save")}
          </Button>
        </div>
      </form>
    </Card>
  );
}
