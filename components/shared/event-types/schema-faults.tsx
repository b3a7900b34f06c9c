"use client";

import { useTranslations } from "next-intl";
import { ApiError } from "../api";

export type SchemaFault = { pointer: string; message: string };
type Field = "schema" | "example";

/**
 * The faults of a schema or example the server refused (422 invalid_schema / invalid_example), by
 * the field they are in, each with its pointer inside that field; null for any other error.
 */
export function schemaFaults(error: unknown): Record<Field, SchemaFault[]> | null {
  if (!(error instanceof ApiError) || (error.problem.code !== "invalid_schema" && error.problem.code !== "invalid_example")) return null;
  const fallback: Field = error.problem.code === "invalid_schema" ? "schema" : "example";
  const faults: Record<Field, SchemaFault[]> = { schema: [], example: [] };
  const errors = error.problem.errors ?? [];
  if (errors.length === 0) faults[fallback].push({ pointer: "", message: error.problem.detail ?? error.problem.code });
  for (const e of errors) {
    const field: Field = e.path === "schema" || e.path === "example" ? e.path : fallback;
    const pointer = "pointer" in e && typeof e.pointer === "string" ? e.pointer : "";
    // The pointer starts at the request's body (`/schema/properties/a`); beside its field it reads from the field.
    faults[field].push({ pointer: pointer.startsWith(`/${field}`) ? pointer.slice(field.length + 1) : pointer, message: e.message });
  }
  return faults;
}

/** Faults as a list under the JSON they are in: the pointer as it is (developers read JSON pointers), then the message; both as text. */
export function SchemaFaults({ faults, testId }: { faults: SchemaFault[]; testId: string }) {
  const t = useTranslations("eventTypes.faults");
  if (faults.length === 0) return null;
  return (
    <div role="alert" className="rounded-md border border-danger/30 bg-danger/5 p-3 text-sm" data-testid={testId}>
      <p className="font-medium">{t("title", { count: faults.length })}</p>
      <PointerList faults={faults} whole={t("whole")} />
    </div>
  );
}

/** Faults by JSON pointer, as text whatever they hold; `whole` names the empty pointer. Schema faults and a message's violations alike. */
export function PointerList({ faults, whole }: { faults: SchemaFault[]; whole: string }) {
  return (
    <ul className="mt-2 space-y-1">
      {faults.map((fault, i) => (
        <li key={i} className="break-words" data-pointer={fault.pointer}>
          <code className="rounded bg-muted px-1 font-mono text-xs break-all">{fault.pointer || whole}</code>
          <span className="text-muted-foreground">: </span>
          {fault.message}
        </li>
      ))}
    </ul>
  );
}
