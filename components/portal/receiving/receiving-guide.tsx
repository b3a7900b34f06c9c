"use client";

import { CheckCircle2, KeyRound } from "lucide-react";
import { useTranslations } from "next-intl";
import { useSyncExternalStore } from "react";
import { SECRET_STAND_IN } from "@/lib/receiving/sample-text";
import type { ReceivingPolicy, ReceivingSample } from "@/lib/receiving/schemas";
import { Card } from "../../ui/card";
import { usePortalSession } from "../session-context";
import { SampleTabs } from "./sample-tabs";

/**
 * Where the samples' secret comes from: this endpoint's (read), still being read, not readable
 * (the link lacks view_secrets, or the read failed), or no endpoint at all (the general guide).
 */
export type SampleSecret = { kind: "filled"; secret: string } | { kind: "loading" } | { kind: "hidden" } | { kind: "failed" } | { kind: "general" };

export function VerifySection({ samples, secret }: { samples: ReceivingSample[]; secret: SampleSecret }) {
  const t = useTranslations("receiving.code");
  const { theme } = usePortalSession();
  const placeholder = SECRET_STAND_IN;
  const note =
    secret.kind === "filled"
      ? t("secretFilled")
      : secret.kind === "loading"
        ? t("secretLoading")
        : secret.kind === "hidden"
          ? t("secretHidden", { placeholder, product: theme.name })
          : secret.kind === "failed"
            ? t("secretFailed", { placeholder })
            : t("secretGeneral", { placeholder });
  return (
    <Card className="p-4">
      <h2 className="text-base font-semibold">{t("title")}</h2>
      <p className="mt-1 text-sm text-muted-foreground">{t("description")}</p>
      <p className="mt-3 flex items-start gap-2 rounded-md bg-muted p-2 text-xs" data-testid="secret-note" data-secret={secret.kind}>
        <KeyRound aria-hidden className="mt-0.5 h-3.5 w-3.5 shrink-0" />
        <span className="min-w-0 break-words">{note}</span>
      </p>
      <div className="mt-3">
        <SampleTabs samples={samples} secret={secret.kind === "filled" ? secret.secret : null} />
      </div>
    </Card>
  );
}

const POLLING_NOTES = ["token", "cursor", "wait", "expired", "verify"] as const;

/** The app's origin, in the browser only: a polling reader's URL starts with it (the server renders the stand-in). */
const origin = () => window.location.origin;
const noOrigin = () => null;
const unsubscribed = () => () => {};

/**
 * Reading a polling endpoint (docs/destinations.md#polling-endpoints): what the token and the cursor
 * are, then a reader per language, its secret and this endpoint's poll URL filled in where known.
 */
export function PollingSection({ samples, secret, endpointId }: { samples: ReceivingSample[]; secret: SampleSecret; endpointId: string | null }) {
  const t = useTranslations("receiving.polling");
  const appOrigin = useSyncExternalStore(unsubscribed, origin, noOrigin);
  const pollUrl = endpointId && appOrigin ? `${appOrigin}/api/v1/endpoints/${encodeURIComponent(endpointId)}/poll` : null;
  return (
    <Card className="p-4" data-testid="polling-guide">
      <h2 className="text-base font-semibold">{t("title")}</h2>
      <p className="mt-1 text-sm text-muted-foreground">{t("description")}</p>
      <ul className="mt-3 list-disc space-y-1 pl-5 text-sm">
        {POLLING_NOTES.map((note) => (
          <li key={note} className="break-words">
            {t(note)}
          </li>
        ))}
      </ul>
      <div className="mt-3">
        <SampleTabs samples={samples} secret={secret.kind === "filled" ? secret.secret : null} pollUrl={pollUrl} testId="poll-sample-code" />
      </div>
    </Card>
  );
}

const CHECKLIST = ["rawBody", "dedupe", "answerFirst", "order", "timestamp", "rotation"] as const;

/** What a careful receiver does, one or two sentences each. */
export function ReceiverChecklist({ policy }: { policy: ReceivingPolicy }) {
  const t = useTranslations("receiving.checklist");
  const args = { seconds: policy.timeoutSeconds, hours: policy.rotationHours };
  return (
    <Card className="p-4">
      <h2 className="text-base font-semibold">{t("title")}</h2>
      <ul className="mt-3 space-y-3" data-testid="receiver-checklist">
        {CHECKLIST.map((item) => (
          <li key={item} className="flex gap-2 text-sm">
            <CheckCircle2 aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-success" />
            <div className="min-w-0">
              <p className="font-medium">{t(`${item}.title`)}</p>
              <p className="mt-0.5 break-words text-muted-foreground">{t(`${item}.body`, args)}</p>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}
