"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { TableSkeleton } from "../ui/skeleton";
import { ErrorMessage } from "./error-message";

/**
 * A list's body as its query goes, the same on every screen: a table's skeleton while it loads, the
 * error with a retry, `empty` when the answer holds nothing (`isEmpty`), else `children` drawn from
 * the answer.
 */
export function QueryRows<D>({
  query,
  isEmpty,
  empty,
  skeletonRows,
  loadingLabel,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: D | undefined; refetch: () => unknown };
  isEmpty: (data: D) => boolean;
  empty: ReactNode;
  skeletonRows?: number;
  /** What the skeleton is announced as; common.loading unless the screen words it its own way. */
  loadingLabel?: string;
  children: (data: D) => ReactNode;
}) {
  const common = useTranslations("common");
  if (query.isPending) return <TableSkeleton rows={skeletonRows} label={loadingLabel ?? common("loading")} />;
  if (query.isError) return <ErrorMessage error={query.error} retry={() => query.refetch()} />;
  const data = query.data as D;
  return isEmpty(data) ? empty : children(data);
}
