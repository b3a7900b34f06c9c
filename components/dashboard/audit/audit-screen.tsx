"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { History } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { api } from "../../shared/api";
import { QueryRows } from "../../shared/query-rows";
import { DeletedName, shortUrl } from "../../shared/names";
import { RelativeTime } from "../../shared/relative-time";
import { Badge } from "../../ui/badge";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { EmptyState } from "../../ui/empty-state";
import { Input } from "../../ui/input";
import { TBody, THead, Table, Td, Th, Tr } from "../../ui/table";
import { PageHeader } from "../../shared/page-header";

import type { AuditEventView as AuditEvent } from "@/lib/audit-log/schemas";

const FILTERS = ["actor_type", "actor_id", "action", "target_id"] as const;
const ACTOR_TYPES = ["api_key", "operator", "portal", "system"] as const;

/** Who did what; every filter lives in the URL, so a view of the log can be shared. */
export function AuditScreen() {
  const t = useTranslations("audit");
  const common = useTranslations("common");
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = Object.fromEntries(FILTERS.flatMap((k) => (params.get(k) ? [[k, params.get(k)!]] : [])));
  const events = useInfiniteQuery({
    queryKey: ["audit", filters],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ limit: "50", ...filters });
      if (pageParam) query.set("cursor", pageParam);
      return api("GET /audit-events", `/audit-events?${query}`);
    },
    getNextPageParam: (last) => last.next_cursor,
  });
  const rows = events.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <form
        className="mb-4 flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const next = new URLSearchParams();
          for (const k of FILTERS) {
            const v = String(form.get(k) ?? "").trim();
            if (v) next.set(k, v);
          }
          router.replace(`${pathname}${next.size ? `?${next}` : ""}`);
        }}
      >
        <div>
          <label htmlFor="audit-actor_type" className="mb-1 block text-xs text-muted-foreground">
            {t("filters.actor_type")}
          </label>
          <select
            id="audit-actor_type"
            name="actor_type"
            defaultValue={filters.actor_type ?? ""}
            className="h-9 rounded-md border border-border bg-surface px-2 text-sm focus-visible:outline-2 focus-visible:outline-ring"
          >
            <option value="">{t("anyActor")}</option>
            {ACTOR_TYPES.map((a) => (
              <option key={a} value={a}>
                {t(`actors.${a}`)}
              </option>
            ))}
          </select>
        </div>
        {(["actor_id", "action", "target_id"] as const).map((k) => (
          <div key={k}>
            <label htmlFor={`audit-${k}`} className="mb-1 block text-xs text-muted-foreground">
              {t(`filters.${k}`)}
            </label>
            <Input id={`audit-${k}`} name={k} defaultValue={filters[k] ?? ""} className="w-48" maxLength={256} />
          </div>
        ))}
        <Button type="submit" variant="secondary">
          {t("apply")}
        </Button>
      </form>
      <Card>
        <QueryRows query={events} isEmpty={() => rows.length === 0} empty={<EmptyState icon={History} title={t("emptyTitle")} description={t("emptyDescription")} />}>
          {() => (
            <Table>
              <THead>
                <Tr>
                  <Th>{t("columns.when")}</Th>
                  <Th>{t("columns.actor")}</Th>
                  <Th>{t("columns.action")}</Th>
                  <Th>{t("columns.target")}</Th>
                  <Th>{t("columns.data")}</Th>
                </Tr>
              </THead>
              <TBody>
                {rows.map((e) => (
                  <Tr key={e.id} aria-label={e.action}>
                    <Td>
                      <RelativeTime value={e.created_at} />
                    </Td>
                    <Td>
                      <Actor event={e} />
                    </Td>
                    <Td className="font-mono text-xs">{e.action}</Td>
                    <Td className="max-w-xs">
                      <Target event={e} />
                    </Td>
                    <Td className="max-w-xs font-mono text-xs break-all text-muted-foreground">
                      <EventData event={e} />
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </QueryRows>
      </Card>
      {events.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button variant="secondary" onClick={() => events.fetchNextPage()} disabled={events.isFetchingNextPage}>
            {common("loadMore")}
          </Button>
        </div>
      ) : null}
    </>
  );
}

const LINK = "text-primary underline-offset-2 hover:underline";
const consumerOf = (e: AuditEvent) => (typeof e.data.consumer_id === "string" ? e.data.consumer_id : null);

/**
 * The event's own facts, as recorded, less the consumer it belongs to: that is named where it
 * matters (a portal session's actor and target) and reached through the target's page, where a
 * bare id here would be a name the person has to look up.
 */
function EventData({ event: e }: { event: AuditEvent }) {
  const { consumer_id: _consumer, ...rest } = e.data;
  return Object.keys(rest).length ? JSON.stringify(rest) : "—";
}

/** Who did it: an operator by email, an API key by name, a portal session by its consumer; the id on hover. */
function Actor({ event: e }: { event: AuditEvent }) {
  const t = useTranslations("audit");
  const { actor } = e;
  const owner = consumerOf(e);
  const href = actor.type === "operator" ? "/operators" : actor.type === "api_key" ? "/api-keys" : actor.type === "portal" && owner ? `/consumers/${encodeURIComponent(owner)}` : null;
  return (
    <span className="flex flex-col items-start gap-0.5">
      <Badge>{t(`actors.${actor.type}`)}</Badge>
      {actor.deleted && actor.id ? (
        <DeletedName id={actor.id} />
      ) : actor.name ? (
        href ? (
          <Link href={href} title={actor.id ?? undefined} className={`${LINK} text-sm break-words`}>
            {actor.name}
          </Link>
        ) : (
          <span title={actor.id ?? undefined} className="text-sm break-words">
            {actor.name}
          </span>
        )
      ) : actor.id ? (
        <code className="font-mono text-xs break-all">{actor.id}</code>
      ) : null}
    </span>
  );
}

/** What it was done to, by name and linked to its page; a deleted one as "deleted" with its id. */
function Target({ event: e }: { event: AuditEvent }) {
  const t = useTranslations("audit");
  const { target } = e;
  const kind = t.has(`targets.${target.type}`) ? t(`targets.${target.type}` as "targets.consumer") : target.type;
  const owner = consumerOf(e);
  const id = encodeURIComponent(target.id);
  const href = {
    consumer: `/consumers/${id}`,
    endpoint: `/endpoints/${id}`,
    operator: "/operators",
    api_key: "/api-keys",
    alert_channel: "/alerts",
    recovery: `/recoveries/${id}`,
    message: `/messages/${id}`,
    portal_session: owner ? `/consumers/${encodeURIComponent(owner)}` : null,
  }[target.type];
  // An endpoint's URL beside its description is shortened; the whole URL is on hover.
  const detail = target.type === "endpoint" && target.detail ? (target.detail === target.name ? null : shortUrl(target.detail)) : target.detail;
  const name = target.type === "endpoint" && target.name === target.detail && target.name ? shortUrl(target.name) : target.name;
  const title = [target.type === "endpoint" ? target.detail : null, target.id].filter(Boolean).join("\n");
  return (
    <span className="flex flex-col items-start gap-0.5">
      <span className="text-xs text-muted-foreground">{kind}</span>
      {target.deleted ? (
        <DeletedName id={target.id} />
      ) : (
        <>
          {href ? (
            <Link href={href} title={title} className={`${LINK} text-sm break-words ${name ? "" : "font-mono text-xs"}`}>
              {name ?? target.id}
            </Link>
          ) : (
            <span title={title} className={`text-sm break-words ${name ? "" : "font-mono text-xs"}`}>
              {name ?? target.id}
            </span>
          )}
          {detail ? <span className={`text-xs break-words text-muted-foreground ${target.type === "recovery" ? "" : "font-mono"}`}>{detail}</span> : null}
        </>
      )}
    </span>
  );
}
