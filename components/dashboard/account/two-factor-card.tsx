"use client";

import { Download, ShieldCheck, TriangleAlert } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useErrorText } from "../../shared/error-message";
import { RelativeTime } from "../../shared/relative-time";
import { SecretValue } from "../../shared/secret-value";
import { Badge } from "../../ui/badge";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { Input } from "../../ui/input";
import { Field } from "../../ui/label";
import { useConfirmEnrollment, useStartEnrollment, useTwoFactor } from "./queries";

type Enrollment = { secret: string; otpauth_uri: string; qr_svg: string };

/** Saves the recovery codes as a text file, made here: they were in the answer and are nowhere else. */
function saveCodes(codes: string[], heading: string) {
  const url = URL.createObjectURL(new Blob([`${heading}\n\n${codes.join("\n")}\n`], { type: "text/plain" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: "webhook-admin-recovery-codes.txt" });
  link.click();
  URL.revokeObjectURL(url);
}

/** The ten recovery codes, shown once, to copy or download; `onDone` when they are put away. */
function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const t = useTranslations("account");
  const common = useTranslations("common");
  return (
    <div className="space-y-4">
      <div className="flex items-start gap-2 rounded-md bg-warning/15 p-3 text-sm">
        <TriangleAlert aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
        <p>{t("recoveryNotice")}</p>
      </div>
      <ol className="grid grid-cols-2 gap-2 font-mono text-sm" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code} className="rounded-md border border-border bg-muted px-2 py-1 text-center select-all">
            {code}
          </li>
        ))}
      </ol>
      <SecretValue value={codes.join("\n")} testId="recovery-codes-text" copyLabel={t("copyRecoveryCodes")} />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => saveCodes(codes, t("recoveryFileHeading"))}>
          <Download aria-hidden className="h-4 w-4" />
          {t("downloadRecoveryCodes")}
        </Button>
        <Button onClick={onDone}>{common("done")}</Button>
      </div>
    </div>
  );
}

/** Scan, or type the secret, then confirm with a code: nothing changes at sign-in until then. */
function EnrollmentSteps({ enrollment, onConfirmed }: { enrollment: Enrollment; onConfirmed: (codes: string[]) => void }) {
  const t = useTranslations("account");
  const errorText = useErrorText();
  const confirm = useConfirmEnrollment();
  const [code, setCode] = useState("");
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        confirm.mutate(code.trim(), { onSuccess: (answer) => onConfirmed(answer.recovery_codes) });
      }}
    >
      <p className="text-sm">{t("scan")}</p>
      {/* An <img> of the SVG the server drew: shown, never run as markup; a data: URL, nothing for next/image to optimize. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img
        src={`data:image/svg+xml;utf8,${encodeURIComponent(enrollment.qr_svg)}`}
        alt={t("qrAlt")}
        width={192}
        height={192}
        className="rounded-md border border-border bg-white p-2"
        data-testid="totp-qr"
      />
      <div>
        <p className="mb-1 text-sm text-muted-foreground">{t("typeInstead")}</p>
        <SecretValue value={enrollment.secret} testId="totp-secret" copyLabel={t("copySecret")} />
      </div>
      <Field id="totp-code" label={t("code")} hint={t("codeHint")}>
        <Input
          id="totp-code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          aria-invalid={confirm.isError ? true : undefined}
          aria-describedby="totp-code-hint"
        />
      </Field>
      {confirm.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorText(confirm.error)}
        </p>
      ) : null}
      <Button type="submit" disabled={confirm.isPending || code.trim().length !== 6}>
        {confirm.isPending ? t("confirming") : t("confirm")}
      </Button>
    </form>
  );
}

/**
 * The signed-in operator's second factor: its state, or enrollment (QR code and secret, a code to
 * confirm, the recovery codes once). `onEnabled` runs once the codes are put away (the forced
 * enrollment re-renders the dashboard then).
 */
export function TwoFactorCard({ onEnabled }: { onEnabled?: () => void }) {
  const t = useTranslations("account");
  const errorText = useErrorText();
  const status = useTwoFactor();
  const start = useStartEnrollment();
  const [codes, setCodes] = useState<string[] | null>(null);
  const enabled = status.data?.enabled ?? false;
  return (
    <Card className="p-6" data-testid="two-factor-card">
      <div className="flex flex-wrap items-center gap-2">
        <ShieldCheck aria-hidden className="h-5 w-5 text-primary" />
        <h2 className="text-lg font-semibold">{t("twoFactorTitle")}</h2>
        {status.data ? <Badge tone={enabled ? "success" : "neutral"}>{enabled ? t("on") : t("off")}</Badge> : null}
      </div>
      <p className="mt-1 text-sm text-muted-foreground">{t("twoFactorDescription")}</p>
      <div className="mt-4">
        {codes ? (
          <RecoveryCodesShown
            codes={codes}
            onDone={() => {
              setCodes(null);
              onEnabled?.();
            }}
          />
        ) : enabled && status.data ? (
          <p className="text-sm" data-testid="two-factor-on">
            {t.rich("enabledSince", { when: () => <RelativeTime value={status.data.enabled_at} /> })} {t("recoveryLeft", { count: status.data.recovery_codes_left })}
          </p>
        ) : start.data ? (
          <EnrollmentSteps enrollment={start.data} onConfirmed={setCodes} />
        ) : (
          <>
            {start.isError ? (
              <p role="alert" className="mb-3 text-sm text-danger">
                {errorText(start.error)}
              </p>
            ) : null}
            <Button onClick={() => start.mutate()} disabled={start.isPending || status.isPending}>
              {t("setUp")}
            </Button>
          </>
        )}
      </div>
    </Card>
  );
}
