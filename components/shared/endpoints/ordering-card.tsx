"use client";

import { ListOrdered } from "lucide-react";
import Link from "next/link";
import { useFormatter, useNow, useTranslations } from "next-intl";
import type { EndpointLines } from "@/lib/endpoints/schemas";
import { AttemptOutcome } from "../attempt-view";
import { shortId } from "../names";
import { useEndpointLines } from "../queries/endpoints";
import { QueryRows } from "../query-rows";
import { RelativeTime } from "../relative-time";
import type { Endpoint } from "../resources";
import { Card } from "../../ui/card";
import { EmptyNote } from "../../ui/empty-note";
import { Table, TBody, Td, Th, THead, Tr } from "../../ui/table";

type Line = EndpointLines["lines"][number];

/**
 * An ordered endpoint's lines that have messages waiting (docs/delivery.md#ordered-delivery), in
 * the dashboard and the portal alike: per line its key, how many wait, and the message holding it
 * with its attempts, last answer and next attempt — why nothing arrives for one customer is the
 * head, retried, that the others wait behind. `messageHref` is where a message's page is.
 */
export function OrderingCard({ endpoint, messageHref }: { endpoint: Endpoint; messageHref: (messageId: string) => string }) {
  const t = useTranslations("endpoints.ordering");
  const lines = useEndpointLines(endpoint.id);

  return (
    <Card className="p-4" data-testid="ordering-card">
      <h2 className="text-sm font-semibold">{t("title")}</h2>
      <p className="mt-1 text-xs text-muted-foreground">{t("description")}</p>
      <p className="mt-3 text-sm">
        <span className="text-muted-foreground">{t("key")}: </span>
        {endpoint.ordering_key === null ? (
          t("noKey")
        ) : (
          <code className="rounded bg-muted px-1 font-mono text-xs break-all" data-testid="ordering-key">
            {endpoint.ordering_key}
          </code>
        )}
      </p>
      <div className="mt-3">
        <QueryRows
          query={lines}
          isEmpty={(data) => data.lines.length === 0}
          empty={<EmptyNote icon={ListOrdered} title={t("emptyTitle")} body={t("emptyBody")} testId="ordering-none" />}
          skeletonRows={2}
          loadingLabel={t("loading")}
        >
          {(data) => <Lines data={data} keyed={endpoint.ordering_key !== null} messageHref={messageHref} />}
        </QueryRows>
      </div>
    </Card>
  );
}

function Lines({ data, keyed, messageHref }: { data: EndpointLines; keyed: boolean; messageHref: (messageId: string) => string }) {
  const t = useTranslations("endpoints.ordering");
  const counts = { lines: data.lines_waiting, messages: data.messages_waiting };
  return (
    <>
      <p className="text-sm font-medium" data-testid="ordering-summary">
        {data.capped ? t("summaryAtLeast", counts) : t("summary", counts)}
      </p>
      {data.lines_waiting > data.lines.length ? <p className="mt-1 text-xs text-muted-foreground">{t("shownTop", { count: data.lines.length })}</p> : null}
      <div className="mt-2 rounded-md border border-border">
        <Table>
          <THead>
            <tr>
              <Th>{t("columns.key")}</Th>
              <Th className="text-right">{t("columns.waiting")}</Th>
              <Th>{t("columns.head")}</Th>
              <Th className="text-right">{t("columns.attempts")}</Th>
              <Th>{t("columns.lastAnswer")}</Th>
              <Th>{t("columns.nextAttempt")}</Th>
            </tr>
          </THead>
          <TBody>
            {data.lines.map((line) => (
              <LineRow key={line.key} line={line} keyed={keyed} messageHref={messageHref} />
            ))}
          </TBody>
        </Table>
      </div>
    </>
  );
}

function LineRow({ line, keyed, messageHref }: { line: Line; keyed: boolean; messageHref: (messageId: string) => string }) {
  const t = useTranslations("endpoints.ordering");
  const format = useFormatter();
  const now = useNow({ updateInterval: 15_000 });
  const { head } = line;
  const due = new Date(head.next_attempt_at).getTime() <= now.getTime();
  return (
    <Tr data-testid="ordering-line">
      <Td className="py-2" data-testid="line-key">
        {line.key === "" ? (
          <span className="text-muted-foreground">{keyed ? t("emptyKey") : t("wholeEndpoint")}</span>
        ) : (
          <code title={line.key} className="block max-w-64 truncate font-mono text-xs">
            {line.key}
          </code>
        )}
      </Td>
      <Td className="py-2 text-right tabular-nums" data-testid="line-waiting">
        {format.number(line.waiting)}
      </Td>
      <Td className="py-2">
        <Link href={messageHref(head.message_id)} title={head.message_id} className="font-mono text-xs text-primary underline-offset-2 hover:underline" data-testid="line-head">
          {shortId(head.message_id)}
        </Link>
      </Td>
      <Td className="py-2 text-right tabular-nums">{head.attempts}</Td>
      <Td className="py-2" data-testid="line-answer">
        {head.attempts === 0 ? (
          <span className="text-xs text-muted-foreground">{t("notAttempted")}</span>
        ) : (
          <AttemptOutcome attempt={{ success: false, status_code: head.last_status_code, error: head.last_error }} />
        )}
      </Td>
      <Td className="py-2 text-xs">{due ? t("dueNow") : <RelativeTime value={head.next_attempt_at} />}</Td>
    </Tr>
  );
}
