"use client";

import { Plus, TriangleAlert } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { toast } from "sonner";
import { useErrorText } from "../../shared/error-message";
import { Button } from "../../ui/button";
import { CopyButton } from "../../ui/copy-button";
import { Dialog, DialogContent, DialogTrigger } from "../../ui/dialog";
import { Input } from "../../ui/input";
import { Field } from "../../ui/label";
import { useCreateApiKey } from "./queries";

/** Create a key, then show it once with a copy button; closing the dialog forgets it. */
export function CreateApiKeyDialog() {
  const t = useTranslations("apiKeys");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const create = useCreateApiKey();
  const reset = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setCreated(null);
      setName("");
      create.reset();
    }
  };
  return (
    <Dialog open={open} onOpenChange={reset}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden className="h-4 w-4" />
          {t("create")}
        </Button>
      </DialogTrigger>
      {created ? (
        <DialogContent title={t("createdTitle")} closeLabel={common("close")}>
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
            <Button onClick={() => reset(false)}>{common("done")}</Button>
          </div>
        </DialogContent>
      ) : (
        <DialogContent title={t("create")} description={t("createDescription")} closeLabel={common("close")}>
          <form
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              create.mutate(
                { name: name.trim() },
                {
                  onSuccess: (key) => {
                    setCreated(key.key);
                    toast.success(t("created", { name: key.name }));
                  },
                  onError: (error) => toast.error(errorText(error)),
                },
              );
            }}
          >
            <Field id="api-key-name" label={t("name")} hint={t("nameHint")}>
              <Input id="api-key-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} aria-describedby="api-key-name-hint" />
            </Field>
            {create.error ? (
              <p role="alert" className="text-sm text-danger">
                {errorText(create.error)}
              </p>
            ) : null}
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => reset(false)}>
                {common("cancel")}
              </Button>
              <Button type="submit" disabled={create.isPending || name.trim() === ""}>
                {create.isPending ? common("creating") : common("create")}
              </Button>
            </div>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
