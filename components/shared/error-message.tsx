"use client";

import { AlertTriangle } from "lucide-react";
import { useTranslations } from "next-intl";
import { ApiError } from "./api";

const KNOWN = [
  "network_error",
  "unauthorized",
  "forbidden",
  "origin_mismatch",
  "not_found",
  "rate_limited",
  "validation_failed",
  "service_unavailable",
  "internal_error",
  "payload_too_large",
  "invalid_json",
  "endpoint_url_forbidden",
  "endpoint_not_active",
  "invalid_state",
  "uid_taken",
  "email_taken",
  "event_type_exists",
  "last_admin",
  "cannot_remove_self",
  "payload_expunged",
  "invalid_filter",
] as const;

/**
 * An error in words: what happened and what to do, from the problem's stable code, in the reader's
 * language. Field problems add the server's own words after the field's path; a code this screen
 * does not know yet falls back to the server's sentence.
 */
export function useErrorText() {
  const t = useTranslations("errors");
  return (error: unknown): string => {
    if (!(error instanceof ApiError)) return t("unknown");
    const { code, detail, errors, request_id: requestId } = error.problem;
    if (code === "internal_error" && requestId) return t("internal_error_ref", { requestId });
    if ((KNOWN as readonly string[]).includes(code)) {
      const base = t(code as (typeof KNOWN)[number]);
      if (code === "validation_failed" && errors?.length) return `${base} ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`;
      return base;
    }
    return detail ?? t("unknown");
  };
}

/**
 * The server's words about one field of a refused request, to show beside that field: a 422
 * validation_failed, or a refusal that names its field (endpoint_url_forbidden names `url` or
 * `target.url`).
 */
export function fieldError(error: unknown, path: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return error.problem.errors?.find((e) => e.path === path)?.message;
}

export function ErrorMessage({ error, retry }: { error: unknown; retry?: () => void }) {
  const text = useErrorText();
  const t = useTranslations("common");
  return (
    <div role="alert" className="m-4 flex items-start gap-3 rounded-md border border-danger/30 bg-danger/5 p-4 text-sm">
      <AlertTriangle aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-danger" />
      <div className="flex-1">
        <p>{text(error)}</p>
        {retry ? (
          <button type="button" onClick={retry} className="mt-2 text-sm font-medium text-primary underline-offset-2 hover:underline">
            {t("retry")}
          </button>
        ) : null}
      </div>
    </div>
  );
}
