"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";

/**
 * Filters live in the query string, so a filtered view can be bookmarked, shared and reloaded.
 * Empty values are dropped rather than written as `key=`.
 */
export function useUrlFilters<K extends string>(keys: readonly K[]) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const values = useMemo(() => Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ""])) as Record<K, string>, [keys, params]);
  const set = useCallback(
    (next: Partial<Record<K, string>>) => {
      const merged = new URLSearchParams(params.toString());
      for (const [key, value] of Object.entries(next) as [K, string | undefined][]) {
        if (value) merged.set(key, value);
        else merged.delete(key);
      }
      const query = merged.toString();
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [params, router, pathname],
  );
  return { values, set };
}

/** The API's query string for the filters that are set. */
export function toQuery(values: Record<string, string>, extra: Record<string, string | undefined> = {}) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...values, ...extra })) if (value) query.set(key, value);
  return query.toString();
}
