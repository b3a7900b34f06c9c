"use client";

import { Plus } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { FormDialog } from "../../shared/form-dialog";
import { ShownOnce } from "../../shared/secret-value";
import { Input } from "../../ui/input";
import { Field } from "../../ui/label";
import { useCreateApiKey } from "./queries";

/** Create a key, then show it once with a copy button; closing the dialog forgets it. */
export function CreateApiKeyDialog() {
  const t = useTranslations("apiKeys");
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
              body: (close) => <ShownOnce notice={t("shownOnce")} value={created} testId="new-api-key" copyLabel={t("copyKey")} onDone={close} />,
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
