"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Combobox, type ComboboxOption } from "../ui/combobox";
import type { Page } from "./api";
import { useApi } from "./api-context";
import { endpointLabel, shortUrl } from "./names";
import type { Consumer, Endpoint } from "./resources";

import type { EndpointWithConsumer } from "@/lib/endpoints/schemas";

/** The search as typed, once typing has paused: one request per pause, not per key. */
function useSettled(value: string, ms = 200): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export const pickerKeys = {
  consumers: (q: string) => ["pickers", "consumers", q] as const,
  endpoints: (q: string, consumer: string) => ["pickers", "endpoints", q, consumer] as const,
  consumer: (ref: string) => ["pickers", "consumer", ref] as const,
  endpoint: (id: string) => ["pickers", "endpoint", id] as const,
};

type PickerProps = {
  id: string;
  /** The id of the visible label (Field gives `${id}-label`). */
  labelledBy?: string;
  value: string;
  onChange: (value: string) => void;
  /** Offer "all" as the first choice (a filter); without it a choice is required. */
  allowAny?: boolean;
  className?: string;
};

/**
 * A consumer, found by typing its name or uid (GET /consumers?q=), chosen by its id. A value given
 * from the address (an id or a uid) is shown by name, read once.
 */
export function ConsumerPicker({ id, labelledBy = `${id}-label`, value, onChange, allowAny, className }: PickerProps) {
  const t = useTranslations("names.pickers");
  const call = useApi();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const q = useSettled(search.trim());
  const found = useQuery({
    queryKey: pickerKeys.consumers(q),
    queryFn: () => call<Page<Consumer>>(`/consumers?${new URLSearchParams({ limit: "20", ...(q ? { q } : {}) })}`),
    enabled: open,
  });
  const listed = found.data?.data.find((c) => c.id === value || c.uid === value);
  const chosen = useQuery({
    queryKey: pickerKeys.consumer(value),
    queryFn: () => call<Consumer>(`/consumers/${encodeURIComponent(value)}`),
    enabled: !!value && !listed,
    staleTime: 60_000,
    retry: false,
  });
  const consumer = listed ?? chosen.data;
  // Until the search settles and its answer comes, nothing is offered: Enter never picks from an older search.
  const settling = search.trim() !== q;
  const options: ComboboxOption[] = (settling ? [] : (found.data?.data ?? [])).map((c) => ({ value: c.id, label: c.name, detail: c.uid, title: c.id }));
  return (
    <Combobox
      id={id}
      labelledBy={labelledBy}
      value={consumer?.id ?? value}
      selected={consumer ? { label: consumer.name, detail: consumer.uid, title: consumer.id } : value ? { label: value, detail: chosen.isError ? t("notFound") : undefined } : null}
      options={options}
      search={search}
      onSearch={setSearch}
      onChange={onChange}
      onOpenChange={setOpen}
      loading={open && (settling || found.isPending)}
      placeholder={allowAny ? t("anyConsumer") : t("chooseConsumer")}
      searchLabel={t("searchConsumers")}
      emptyText={t("noMatch")}
      loadingText={t("searching")}
      none={allowAny ? t("anyConsumer") : undefined}
      className={className}
    />
  );
}

/**
 * An endpoint of any consumer (or of `consumer` alone), found by typing its URL, its description or
 * its consumer's name or uid (GET /endpoints?q=), chosen by its id, shown by its description or URL.
 */
export function EndpointPicker({ id, labelledBy = `${id}-label`, value, onChange, allowAny, consumer, className }: PickerProps & { consumer?: string }) {
  const t = useTranslations("names.pickers");
  const call = useApi();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const q = useSettled(search.trim());
  const found = useQuery({
    queryKey: pickerKeys.endpoints(q, consumer ?? ""),
    queryFn: () => call<Page<EndpointWithConsumer>>(`/endpoints?${new URLSearchParams({ limit: "20", ...(q ? { q } : {}), ...(consumer ? { consumer } : {}) })}`),
    enabled: open,
    retry: false,
  });
  const listed = found.data?.data.find((e) => e.id === value);
  const chosen = useQuery({
    queryKey: pickerKeys.endpoint(value),
    queryFn: () => call<Endpoint>(`/endpoints/${encodeURIComponent(value)}`),
    enabled: !!value && !listed,
    staleTime: 60_000,
    retry: false,
  });
  const endpoint = listed ?? chosen.data;
  const settling = search.trim() !== q;
  const options: ComboboxOption[] = (settling ? [] : (found.data?.data ?? [])).map((e) => ({
    value: e.id,
    label: endpointLabel(e),
    // Beside a description, the URL; and whose it is, where the list spans consumers.
    detail: [e.description ? shortUrl(e.url) : null, consumer ? null : e.consumer?.name].filter(Boolean).join(" · ") || undefined,
    title: `${e.url}\n${e.id}`,
  }));
  return (
    <Combobox
      id={id}
      labelledBy={labelledBy}
      value={value}
      selected={endpoint ? { label: endpointLabel(endpoint), title: `${endpoint.url}\n${endpoint.id}` } : value ? { label: value, detail: chosen.isError ? t("notFound") : undefined } : null}
      options={options}
      search={search}
      onSearch={setSearch}
      onChange={onChange}
      onOpenChange={setOpen}
      loading={open && (settling || found.isPending)}
      placeholder={allowAny ? t("anyEndpoint") : t("chooseEndpoint")}
      searchLabel={t("searchEndpoints")}
      emptyText={found.isError ? t("notFound") : t("noMatch")}
      loadingText={t("searching")}
      none={allowAny ? t("anyEndpoint") : undefined}
      className={className}
    />
  );
}
