"use client";

import { Plus, TriangleAlert } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { FormDialog } from "../../shared/form-dialog";
import { Button } from "../../ui/button";
import { CopyButton } from "../../ui/copy-button";
import { Input } from "../../ui/input";
import { Field } from "../../ui/label";
import { useCreateApiKey } from "./queries";

/** Create a key, then show it once with a copy button; closing the dialog forgets it. */
export function CreateApiKeyDialog() {
  const t = useTranslations("apiKeys");
  const common = useTranslations("common");
  const [name, setName] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const create = useCreateApiKey();
  return (
    <FormDialog
      title={t("create")}
      icon={Plus}
      description={t("createDescription")}
      mutation={create}
      toInput={() => ({ name: name.trim() })}
      ready={name.trim() !== ""}
      successText={(key) => t("created", { name: key.name })}
      onSuccess={(key) => setCreated(key.key)}
      keepOpenOnSuccess
      onClosed={() => {
        setCreated(null);
        setName("");
      }}
      shown={
        created
          ? {
              title: t("createdTitle"),
              body: (close) => (
                <>
                  <div className="flex items-start gap-2 rounded-md bg-warning/15 p-3 text-sm">
                    <TriangleAlert aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
                    <p>{t("shownOnce")}</p>
                  </div>
                  <div className="mt-4 flex items-center gap-1 rounded-md border border-border bg-muted p-2">
                    <code data-testid="new-api-key" className="min-w-0 flex-1 font-mono text-xs break-all select-all">
                      {created}
                    </code>
                    <CopyButton value={created} label={t("copyKey")} copiedLabel={common("copied")} failedLabel={common("copyFailed")} />
                  </div>
                  <div className="mt-6 flex justify-end">
                    <Button onClick={close}>{common("done")}</Button>
                  </div>
                </>
              ),
            }
          : null
      }
    >
      <Field id="api-key-name" label={t("name")} hint={t("nameHint")}>
        <Input id="api-key-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} aria-describedby="api-key-name-hint" />
      </Field>
    </FormDialog>
  );
}
