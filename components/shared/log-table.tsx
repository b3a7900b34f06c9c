"use client";

import { useInfiniteQuery, type QueryKey } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import type { LucideIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { Button } from "../ui/button";
import { DataTable } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import type { Page } from "./api";
import { QueryRows } from "./query-rows";

/**
 * A log over a keyset-paged list: newest first, "load more" follows next_cursor, and the loaded
 * pages refresh by polling so new rows appear without a reload. The caller supplies the fetcher
 * (the dashboard's cookie client or the portal's bearer client) and the filters in the key.
 */
export function LogTable<T>({
  queryKey,
  fetchPage,
  columns,
  rowLabel,
  empty,
  refetchInterval = 5_000,
}: {
  queryKey: QueryKey;
  fetchPage: (cursor: string | null) => Promise<Page<T>>;
  columns: ColumnDef<T, unknown>[];
  rowLabel?: (row: T) => string;
  empty: { icon: LucideIcon; title: string; description: React.ReactNode; action?: React.ReactNode };
  refetchInterval?: number | false;
}) {
  const t = useTranslations("logs");
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    refetchInterval,
  });
  const rows = query.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <QueryRows query={query} isEmpty={() => rows.length === 0} empty={<EmptyState {...empty} />} loadingLabel={t("loading")}>
      {() => (
        <div>
          <DataTable columns={columns} data={rows} rowLabel={rowLabel} />
          <div className="flex items-center justify-between gap-2 border-t border-border px-4 py-3 text-xs text-muted-foreground">
            <span aria-live="polite">{t("shown", { count: rows.length })}</span>
            {query.hasNextPage ? (
              <Button variant="secondary" size="sm" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
                {query.isFetchingNextPage ? t("loadingMore") : t("loadMore")}
              </Button>
            ) : (
              <span>{t("end")}</span>
            )}
          </div>
        </div>
      )}
    </QueryRows>
  );
}
