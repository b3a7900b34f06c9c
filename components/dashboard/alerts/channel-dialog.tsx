"use client";

import { Plus, Pencil } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { ALERT_CHANNEL_KINDS, ALERT_KINDS, type AlertChannelKind } from "@/lib/alerts/kinds";
import { FormDialog } from "../../shared/form-dialog";
import { useAlertKindName } from "./alert-kind-name";
import { ShownOnce } from "../../shared/secret-value";
import { Input } from "../../ui/input";
import { Field } from "../../ui/label";
import { useCreateChannel, useUpdateChannel, type AlertChannel, type CreateAlertChannelInput } from "./queries";

/** Each kind's config fields, in the order the form asks for them. */
const FIELDS: Record<AlertChannelKind, { key: string; type: "url" | "text" | "password" | "emails"; optional?: boolean }[]> = {
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
  const kindName = useAlertKindName();
  const [kind, setKind] = useState<AlertChannelKind>(channel?.kind ?? "slack");
  const [name, setName] = useState(channel?.name ?? "");
  const [config, setConfig] = useState<Record<string, string>>({});
  const [kinds, setKinds] = useState<string[]>(channel?.kinds ?? []);
  const [secret, setSecret] = useState<string | null>(null);
  const create = useCreateChannel();
  const update = useUpdateChannel();

  const configBody = () => {
    const body: Record<string, unknown> = {};
    for (const field of FIELDS[kind]) {
      const raw = (config[field.key] ?? "").trim();
      if (!raw) continue;
      body[field.key] = field.type === "emails" ? raw.split(/[\s,]+/).filter(Boolean) : raw;
    }
    return body;
  };
  // In the list's order, and only the kinds there are (a channel's stored kinds are plain strings).
  const chosen = () => {
    const list = ALERT_KINDS.filter((k) => kinds.includes(k));
    return list.length ? list : null;
  };
  const shared = {
    disabledReason,
    ready: name.trim() !== "",
    onOpened: () => {
      setName(channel?.name ?? "");
      setKinds(channel?.kinds ?? []);
      setConfig({});
    },
    onClosed: () => {
      setSecret(null);
      setConfig({});
    },
  };

  const fields = (
    <>
      {!channel ? (
        <fieldset>
          <legend className="mb-1.5 text-sm font-medium">{t("kind")}</legend>
          <div className="flex flex-wrap gap-3">
            {ALERT_CHANNEL_KINDS.map((k) => (
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
        <Field key={field.key} id={`channel-${field.key}`} label={t(`fields.${field.key}`)} hint={channel ? t("keepHint") : field.optional ? t("optionalHint") : undefined}>
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
            <label key={k} className="flex items-center gap-1.5 text-xs" title={k}>
              <input type="checkbox" checked={kinds.includes(k)} onChange={(e) => setKinds((list) => (e.target.checked ? [...list, k] : list.filter((x) => x !== k)))} />
              {kindName(k)}
            </label>
          ))}
        </div>
      </fieldset>
    </>
  );

  if (channel) {
    return (
      <FormDialog
        {...shared}
        title={t("editTitle", { name: channel.name })}
        icon={Pencil}
        trigger={{ label: t("edit"), size: "sm" }}
        editing
        mutation={update}
        toInput={() => {
          const body = configBody();
          return { id: channel.id, name: name.trim(), kinds: chosen(), ...(Object.keys(body).length ? { config: body } : {}) };
        }}
        successText={() => t("saved", { name: name.trim() })}
      >
        {fields}
      </FormDialog>
    );
  }
  return (
    <FormDialog
      {...shared}
      title={t("create")}
      icon={Plus}
      mutation={create}
      // The config is built from FIELDS[kind], not typed per kind: the server checks it against the kind's schema.
      toInput={() => ({ kind, name: name.trim(), config: configBody(), kinds: chosen() }) as CreateAlertChannelInput}
      successText={(created) => t("created", { name: created.name })}
      // A webhook channel's signing secret is shown once, in the same dialog.
      keepOpenOnSuccess={(created) => Boolean(created.secret)}
      onSuccess={(created) => setSecret(created.secret ?? null)}
      shown={
        secret
          ? {
              title: t("createdTitle"),
              body: (close) => <ShownOnce notice={t("secretShownOnce")} value={secret} testId="channel-secret" copyLabel={t("copySecret")} onDone={close} />,
            }
          : null
      }
    >
      {fields}
    </FormDialog>
  );
}
