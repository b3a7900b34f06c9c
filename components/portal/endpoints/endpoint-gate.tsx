"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { ErrorMessage } from "../../shared/error-message";
import { Skeleton } from "../../ui/skeleton";

/**
 * A portal page about one endpoint: the way back, then a skeleton while the endpoint loads, the
 * error in words (with a retry) if it does not, or the page.
 */
export function EndpointGate<T>({ query, back, children }: { query: UseQueryResult<T>; back: { href: string; label: string }; children: (endpoint: T) => ReactNode }) {
  const backLink = (
    <Link href={back.href} className="mb-4 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeft aria-hidden className="h-4 w-4" />
      {back.label}
    </Link>
  );
  if (query.isPending)
    return (
      <div className="space-y-4" aria-busy="true">
        <Skeleton className="h-8 w-2/3" />
        <Skeleton className="h-60 w-full" />
      </div>
    );
  if (query.isError)
    return (
      <>
        {backLink}
        <ErrorMessage error={query.error} retry={() => query.refetch()} />
      </>
    );
  return (
    <>
      {backLink}
      {children(query.data)}
    </>
  );
}
