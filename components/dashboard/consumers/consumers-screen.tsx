"use client";

import { Search, Users } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { QueryRows } from "../../shared/query-rows";
import { RelativeTime } from "../../shared/relative-time";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { EmptyState } from "../../ui/empty-state";
import { Input } from "../../ui/input";
import { TBody, THead, Table, Td, Th, Tr } from "../../ui/table";
import { PageHeader } from "../../shared/page-header";
import { useConsumers } from "../../shared/queries/consumers";

/** Find a consumer by uid or name; the search is in the URL (?q=) so it can be shared. */
export function ConsumersScreen() {
  const t = useTranslations("consumers");
  const common = useTranslations("common");
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const q = params.get("q") ?? "";
  const [draft, setDraft] = useState(q);
  const consumers = useConsumers(q);
  const rows = consumers.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <form
        role="search"
        className="mb-4 flex max-w-md gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          const next = new URLSearchParams(params);
          if (draft.trim()) next.set("q", draft.trim());
          else next.delete("q");
          router.replace(`${pathname}${next.size ? `?${next}` : ""}`);
        }}
      >
        <label htmlFor="consumer-search" className="sr-only">
          {t("search")}
        </label>
        <Input id="consumer-search" type="search" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder={t("searchPlaceholder")} maxLength={200} />
        <Button type="submit" variant="secondary">
          <Search aria-hidden className="h-4 w-4" />
          {t("search")}
        </Button>
      </form>
      <Card>
        <QueryRows query={consumers} isEmpty={() => rows.length === 0} empty={<EmptyState icon={Users} title={q ? t("noMatchTitle", { q }) : t("emptyTitle")} description={q ? t("noMatchDescription") : t("emptyDescription")} />}>
          {() => (
            <Table>
              <THead>
                <Tr>
                  <Th>{t("columns.name")}</Th>
                  <Th>{t("columns.uid")}</Th>
                  <Th>{t("columns.id")}</Th>
                  <Th>{t("columns.created")}</Th>
                </Tr>
              </THead>
              <TBody>
                {rows.map((consumer) => (
                  <Tr key={consumer.id} aria-label={consumer.name}>
                    <Td>
                      <Link href={`/consumers/${encodeURIComponent(consumer.uid)}`} className="font-medium text-primary underline-offset-2 hover:underline">
                        {consumer.name}
                      </Link>
                    </Td>
                    <Td>
                      <code className="font-mono text-xs">{consumer.uid}</code>
                    </Td>
                    <Td>
                      <code className="font-mono text-xs text-muted-foreground">{consumer.id}</code>
                    </Td>
                    <Td>
                      <RelativeTime value={consumer.created_at} />
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </QueryRows>
      </Card>
      {consumers.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button variant="secondary" onClick={() => consumers.fetchNextPage()} disabled={consumers.isFetchingNextPage}>
            {consumers.isFetchingNextPage ? common("loading") : common("loadMore")}
          </Button>
        </div>
      ) : null}
    </>
  );
}
