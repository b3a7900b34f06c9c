"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ConsumerRef } from "@/lib/consumers/schemas";
import type { EndpointRef } from "@/lib/endpoints/schemas";
import { cn } from "../ui/cn";

export type { ConsumerRef, EndpointRef };

/**
 * A URL as a person scans it: past `max` characters, its start (the scheme and host) and its end
 * (the path's last part) with an ellipsis between; the full URL is on hover wherever this is shown.
 */
export function shortUrl(url: string, max = 40): string {
  if (url.length <= max) return url;
  const head = Math.ceil((max - 1) / 2);
  return `${url.slice(0, head)}…${url.slice(url.length - (max - 1 - head))}`;
}

/** An id as a list shows it: its prefix and its tail; the whole id is on hover wherever this is shown. */
export const shortId = (id: string) => (id.length > 14 ? `${id.slice(0, 4)}…${id.slice(-8)}` : id);

/** What an endpoint is called: its description, else its URL (shortened). */
export function endpointLabel(endpoint: Pick<EndpointRef, "url" | "description">): string {
  return endpoint.description || shortUrl(endpoint.url);
}

const LINK = "text-primary underline-offset-2 hover:underline";

function Named({ href, title, className, children }: { href?: string; title: string; className?: string; children: React.ReactNode }) {
  return href ? (
    <Link href={href} title={title} className={cn(LINK, className)}>
      {children}
    </Link>
  ) : (
    <span title={title} className={className}>
      {children}
    </span>
  );
}

/** An object that is gone: said so, with the id that is all that is left of it. */
export function DeletedName({ id }: { id: string }) {
  const t = useTranslations("names");
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-1.5">
      <span className="text-muted-foreground italic">{t("deleted")}</span>
      <code className="font-mono text-xs break-all text-muted-foreground">{id}</code>
    </span>
  );
}

/** A consumer by its name with its uid beneath, linked to its page; its id on hover. */
export function ConsumerName({ id, consumer, href, inline }: { id: string; consumer: ConsumerRef | null | undefined; href?: string; inline?: boolean }) {
  const t = useTranslations("names");
  if (!consumer) return <DeletedName id={id} />;
  return (
    <span className={cn("min-w-0", inline ? "inline" : "flex flex-col")}>
      <Named href={href} title={t("idHint", { id })} className="font-medium break-words">
        {consumer.name}
      </Named>
      <span className={cn("font-mono text-xs text-muted-foreground", inline ? "ml-1.5 whitespace-nowrap" : "break-all")}>{consumer.uid}</span>
    </span>
  );
}

/**
 * An endpoint by its description with its URL (shortened) beneath, or by its URL alone when it has
 * no description, linked to its page; the full URL and the id on hover. `name` overrides what it
 * is called (the portal knows its endpoints by URL). On one line with `inline`.
 */
export function EndpointName({
  id,
  endpoint,
  href,
  inline,
  name,
}: {
  id: string;
  endpoint: EndpointRef | null | undefined;
  href?: string;
  inline?: boolean;
  name?: string;
}) {
  const t = useTranslations("names");
  if (!endpoint) return name ? <Named title={t("idHint", { id })}>{name}</Named> : <DeletedName id={id} />;
  const title = `${endpoint.url}\n${t("idHint", { id })}`;
  if (name || !endpoint.description) {
    return (
      <Named href={href} title={title} className={cn("font-mono text-xs", name ? "break-all" : "whitespace-nowrap")}>
        {name ?? shortUrl(endpoint.url)}
      </Named>
    );
  }
  return (
    <span className={cn("min-w-0", inline ? "inline" : "flex flex-col")}>
      <Named href={href} title={title} className="font-medium break-words">
        {endpoint.description}
      </Named>
      <span title={endpoint.url} className={cn("font-mono text-xs whitespace-nowrap text-muted-foreground", inline && "ml-1.5")}>
        {shortUrl(endpoint.url)}
      </span>
    </span>
  );
}
