"use client";

import { KeyRound, Radio } from "lucide-react";
import { useFormatter, useNow, useTranslations } from "next-intl";
import { useState, useSyncExternalStore } from "react";
import { toast } from "sonner";
import { CodeBlock } from "../code-block";
import { ErrorMessage, useErrorText } from "../error-message";
import { RelativeTime } from "../relative-time";
import type { Endpoint } from "../resources";
import { SecretValue } from "../secret-value";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { EmptyNote } from "../../ui/empty-note";
import { Skeleton } from "../../ui/skeleton";
import { useCreatePollToken, usePollStatus, type PollStatus } from "../queries/polling";

// The app's own address, which the customer polls: where this page was served from (the portal
// framed in another site still has the app's origin). Empty while rendered on the server.
const noChange = () => () => {};
const useAppUrl = () =>
  useSyncExternalStore(
    noChange,
    () => window.location.origin,
    () => "",
  );

/** The command a customer runs to read the endpoint's next page (`cursor` empty: from the start, or from its committed position). */
export function pollCommand(appUrl: string, endpointId: string, token: string): string {
  return `curl -H "Authorization: Bearer ${token}" \\\n  "${appUrl}/api/v1/endpoints/${encodeURIComponent(endpointId)}/poll?cursor=&limit=100"`;
}

/**
 * A polling endpoint receives nothing: the customer reads its messages through the poll API with
 * a token of this endpoint. The card shows where that reading stands (last poll, position, lag),
 * the tokens, a new token once (it is stored only as a hash), and the command to poll with.
 * `reason` says why the viewer may not make a token.
 */
export function PollingCard({ endpoint, reason }: { endpoint: Endpoint; reason: string | null }) {
  const t = useTranslations("endpoints.polling");
  const errorText = useErrorText();
  const status = usePollStatus(endpoint.id);
  const create = useCreatePollToken(endpoint.id);
  const [token, setToken] = useState<string | null>(null);
  const appUrl = useAppUrl();

  return (
    <Card className="p-4" data-testid="polling-card">
      <h2 className="mb-1 text-sm font-semibold">{t("title")}</h2>
      <p className="mb-3 text-xs text-muted-foreground">{t("description")}</p>
      {status.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : status.isError ? (
        <ErrorMessage error={status.error} retry={() => status.refetch()} />
      ) : (
        <PollState status={status.data} />
      )}
      <div className="mt-4 border-t border-border pt-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-xs font-semibold text-muted-foreground">{t("tokens")}</h3>
          <Button
            size="sm"
            variant="secondary"
            disabled={reason !== null || create.isPending}
            title={reason ?? undefined}
            onClick={() =>
              create.mutate(undefined, {
                onSuccess: (made) => {
                  setToken(made.token);
                  toast.success(t("tokenCreated"));
                },
                onError: (error) => toast.error(errorText(error)),
              })
            }
          >
            <KeyRound aria-hidden className="h-3.5 w-3.5" />
            {t("createToken")}
          </Button>
        </div>
        {reason ? <p className="mt-1 text-xs text-muted-foreground">{reason}</p> : null}
        {token ? (
          <div className="mt-3 space-y-2" data-testid="poll-token-shown">
            <p role="alert" className="rounded-md bg-warning/15 p-2 text-xs">
              {t("shownOnce")}
            </p>
            <SecretValue value={token} testId="poll-token" copyLabel={t("copyToken")} />
          </div>
        ) : null}
        {status.data ? <TokenList tokens={status.data.tokens} /> : null}
      </div>
      <div className="mt-4">
        <CodeBlock code={pollCommand(appUrl, endpoint.id, token ?? "<token>")} title={t("command")} copyLabel={t("copyCommand")} testId="poll-command" />
        <p className="mt-1 text-xs text-muted-foreground">{t("commandHint")}</p>
      </div>
    </Card>
  );
}

function PollState({ status }: { status: PollStatus }) {
  const t = useTranslations("endpoints.polling");
  const format = useFormatter();
  const now = useNow({ updateInterval: 30_000 });
  // The lag in time, said as when the oldest waiting message was created ("1 hour ago"), not as a count of seconds.
  const oldest = status.lag_seconds !== null ? t("lagOldest", { ago: format.relativeTime(new Date(now.getTime() - status.lag_seconds * 1000), now) }) : null;
  if (status.last_polled_at === null) return <EmptyNote icon={Radio} title={t("neverTitle")} body={t("neverBody", { count: status.lag_messages })} testId="poll-never" />;
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm" data-testid="poll-status">
      <dt className="text-muted-foreground">{t("lastPolled")}</dt>
      <dd>
        <RelativeTime value={status.last_polled_at} />
      </dd>
      <dt className="text-muted-foreground">{t("position")}</dt>
      <dd className="break-all" data-testid="poll-position">
        {status.position ? (
          <>
            <code className="font-mono text-xs">{status.position.message_id}</code>{" "}
            <span className="text-muted-foreground">
              ({t("createdAt")} <RelativeTime value={status.position.created_at} />)
            </span>
          </>
        ) : (
          t("noPosition")
        )}
      </dd>
      <dt className="text-muted-foreground">{t("lag")}</dt>
      <dd data-testid="poll-lag">
        {status.lag_messages === 0
          ? t("caughtUp")
          : [t(status.lag_capped ? "lagAtLeast" : "lagMessages", { count: status.lag_messages }), oldest].filter(Boolean).join(" · ")}
      </dd>
    </dl>
  );
}

function TokenList({ tokens }: { tokens: PollStatus["tokens"] }) {
  const t = useTranslations("endpoints.polling");
  if (tokens.length === 0) return <p className="mt-2 text-xs text-muted-foreground">{t("noTokens")}</p>;
  return (
    <ul className="mt-2 space-y-1 text-xs" data-testid="poll-tokens">
      {tokens.map((token) => (
        <li key={token.id} className="flex flex-wrap gap-x-3">
          <code className="font-mono">{token.id}</code>
          <span className="text-muted-foreground">
            {t("tokenCreatedAt")} <RelativeTime value={token.created_at} />
          </span>
          <span className="text-muted-foreground">
            {token.last_used_at ? (
              <>
                {t("tokenUsedAt")} <RelativeTime value={token.last_used_at} />
              </>
            ) : (
              t("tokenUnused")
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}
