"use client";

import { Plus, Pencil } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { toast } from "sonner";
import { ALERT_KINDS } from "@/lib/alerts/kinds";
import { useErrorText } from "../../shared/error-message";
import { Button } from "../../ui/button";
import { CopyButton } from "../../ui/copy-button";
import { Dialog, DialogContent, DialogTrigger } from "../../ui/dialog";
import { Input } from "../../ui/input";
import { Field } from "../../ui/label";
import { CHANNEL_KINDS, useCreateChannel, useUpdateChannel, type AlertChannel, type ChannelKind } from "./queries";

/** Each kind's config fields, in the order the form asks for them. */
const FIELDS: Record<ChannelKind, { key: string; type: "url" | "text" | "password" | "emails"; optional?: boolean }[]> = {
  slack: [{ key: "webhook_url", type: "url" }],
  teams: [{ key: "webhook_url", type: "url" }],
  chatwork: [
    { key: "api_token", type: "password" },
    { key: "room_id", type: "text" },
  ],
  email: [{ key: "to", type: "emails" }],
  webhook: [
    { key: "url", type: "url" },
    { key: "secret", type: "password", optional: true },
  ],
};

/** Create a channel of any kind, or edit one: on edit, blank credential fields keep what is stored. */
export function ChannelDialog({ channel, disabledReason }: { channel?: AlertChannel; disabledReason: string | null }) {
  const t = useTranslations("alerts.channel");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<ChannelKind>(channel?.kind ?? "slack");
  const [name, setName] = useState(channel?.name ?? "");
  const [config, setConfig] = useState<Record<string, string>>({});
  const [kinds, setKinds] = useState<string[]>(channel?.kinds ?? []);
  const [secret, setSecret] = useState<string | null>(null);
  const create = useCreateChannel();
  const update = useUpdateChannel();
  const pending = create.isPending || update.isPending;

  const reset = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setSecret(null);
      setConfig({});
      if (!channel) setName("");
    }
  };
  const configBody = () => {
    const body: Record<string, unknown> = {};
    for (const field of FIELDS[kind]) {
      const raw = (config[field.key] ?? "").trim();
      if (!raw) continue;
      body[field.key] = field.type === "emails" ? raw.split(/[\s,]+/).filter(Boolean) : raw;
    }
    return body;
  };

  return (
    <Dialog open={open} onOpenChange={reset}>
      <DialogTrigger asChild>
        {channel ? (
          <Button variant="secondary" size="sm" disabled={disabledReason !== null} title={disabledReason ?? undefined}>
            <Pencil aria-hidden className="h-3.5 w-3.5" />
            {t("edit")}
          </Button>
        ) : (
          <Button disabled={disabledReason !== null} title={disabledReason ?? undefined}>
            <Plus aria-hidden className="h-4 w-4" />
            {t("create")}
          </Button>
        )}
      </DialogTrigger>
      {secret ? (
        <DialogContent title={t("createdTitle")} closeLabel={common("close")}>
          <p className="text-sm">{t("secretShownOnce")}</p>
          <div className="mt-3 flex items-center gap-1 rounded-md border border-border bg-muted p-2">
            <code data-testid="channel-secret" className="min-w-0 flex-1 font-mono text-xs break-all">
              {secret}
            </code>
            <CopyButton value={secret} label={t("copySecret")} copiedLabel={common("copied")} failedLabel={common("copyFailed")} />
          </div>
          <div className="mt-6 flex justify-end">
            <Button onClick={() => reset(false)}>{common("done")}</Button>
          </div>
        </DialogContent>
      ) : (
        <DialogContent title={channel ? t("editTitle", { name: channel.name }) : t("create")} closeLabel={common("close")}>
          <form
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              const onError = (error: unknown) => toast.error(errorText(error));
              const chosen = kinds.length ? kinds : null;
              if (channel) {
                const body = configBody();
                update.mutate(
                  { id: channel.id, name: name.trim(), kinds: chosen, ...(Object.keys(body).length ? { config: body } : {}) },
                  { onSuccess: () => (toast.success(t("saved", { name: name.trim() })), reset(false)), onError },
                );
              } else {
                create.mutate(
                  { kind, name: name.trim(), config: configBody(), kinds: chosen },
                  {
                    onSuccess: (created) => {
                      toast.success(t("created", { name: created.name }));
                      if (created.secret) setSecret(created.secret);
                      else reset(false);
                    },
                    onError,
                  },
                );
              }
            }}
          >
            {!channel ? (
              <fieldset>
                <legend className="mb-1.5 text-sm font-medium">{t("kind")}</legend>
                <div className="flex flex-wrap gap-3">
                  {CHANNEL_KINDS.map((k) => (
                    <label key={k} className="flex items-center gap-1.5 text-sm">
                      <input type="radio" name="channel-kind" value={k} checked={kind === k} onChange={() => (setKind(k), setConfig({}))} />
                      {t(`kinds.${k}`)}
                    </label>
                  ))}
                </div>
              </fieldset>
            ) : null}
            <Field id="channel-name" label={t("name")}>
              <Input id="channel-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={256} />
            </Field>
            {FIELDS[kind].map((field) => (
              <Field
                key={field.key}
                id={`channel-${field.key}`}
                label={t(`fields.${field.key}`)}
                hint={channel ? t("keepHint") : field.optional ? t("optionalHint") : undefined}
              >
                <Input
                  id={`channel-${field.key}`}
                  type={field.type === "emails" ? "text" : field.type}
                  value={config[field.key] ?? ""}
                  onChange={(e) => setConfig((c) => ({ ...c, [field.key]: e.target.value }))}
                  required={!channel && !field.optional}
                  placeholder={channel && typeof channel.config[field.key] === "string" ? (channel.config[field.key] as string) : undefined}
                  autoComplete="off"
                />
              </Field>
            ))}
            <fieldset>
              <legend className="mb-1 text-sm font-medium">{t("alertKinds")}</legend>
              <p className="mb-2 text-xs text-muted-foreground">{t("alertKindsHint")}</p>
              <div className="grid grid-cols-2 gap-1.5">
                {ALERT_KINDS.map((k) => (
                  <label key={k} className="flex items-center gap-1.5 font-mono text-xs">
                    <input
                      type="checkbox"
                      checked={kinds.includes(k)}
                      onChange={(e) => setKinds((list) => (e.target.checked ? [...list, k] : list.filter((x) => x !== k)))}
                    />
                    {k}
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => reset(false)}>
                {common("cancel")}
              </Button>
              <Button type="submit" disabled={pending || name.trim() === ""}>
                {pending ? common("saving") : channel ? common("save") : common("create")}
              </Button>
            </div>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
