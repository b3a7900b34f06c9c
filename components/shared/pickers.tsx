"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Combobox, type ComboboxOption } from "../ui/combobox";
import type { ApiCall } from "./api";
import { useApi } from "./api-context";
import { endpointLabel, shortUrl } from "./names";


/** The search as typed, once typing has paused: one request per pause, not per key. */
function useSettled(value: string, ms = 200): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * What a picker looks up: a page of matches for the settled search (only while it is open), and the
 * chosen value's own object when the page does not hold it (a value from the address, say).
 */
function usePickerLookup<T, One>({
  value,
  list,
  one,
  inList,
}: {
  value: string;
  list: (q: string) => { key: readonly unknown[]; fetch: (call: ApiCall) => Promise<{ data: T[] }> };
  one: { key: readonly unknown[]; fetch: (call: ApiCall) => Promise<One> };
  inList: (items: T[]) => One | undefined;
}) {
  const call = useApi();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const q = useSettled(search.trim());
  const page = list(q);
  const found = useQuery({ queryKey: page.key, queryFn: () => page.fetch(call), enabled: open, retry: false });
  const listed = inList(found.data?.data ?? []);
  const chosen = useQuery({ queryKey: one.key, queryFn: () => one.fetch(call), enabled: !!value && !listed, staleTime: 60_000, retry: false });
  // Until the search settles and its answer comes, nothing is offered: Enter never picks from an older search.
  const settling = search.trim() !== q;
  return {
    search,
    setSearch,
    setOpen,
    matches: settling ? [] : (found.data?.data ?? []),
    loading: open && (settling || found.isPending),
    failed: found.isError,
    picked: listed ?? chosen.data,
    pickedMissing: chosen.isError,
  };
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

type Selection = { label: string; detail?: string; title?: string };

/**
 * The combobox both pickers show: the looked-up value by its name, a value not (yet) looked up as
 * typed (marked when it was not found), and the texts of the picker's kind.
 */
function PickerCombobox({
  id,
  labelledBy = `${id}-label`,
  value,
  onChange,
  allowAny,
  className,
  lookup,
  shown,
  options,
  texts,
}: PickerProps & {
  lookup: Pick<ReturnType<typeof usePickerLookup>, "search" | "setSearch" | "setOpen" | "loading" | "pickedMissing">;
  /** The picked object as the button shows it, once it is known. */
  shown: Selection | undefined;
  options: ComboboxOption[];
  texts: { any: string; choose: string; search: string; empty: string };
}) {
  const t = useTranslations("names.pickers");
  return (
    <Combobox
      id={id}
      labelledBy={labelledBy}
      value={value}
      selected={shown ?? (value ? { label: value, detail: lookup.pickedMissing ? t("notFound") : undefined } : null)}
      options={options}
      search={lookup.search}
      onSearch={lookup.setSearch}
      onChange={onChange}
      onOpenChange={lookup.setOpen}
      loading={lookup.loading}
      placeholder={allowAny ? texts.any : texts.choose}
      searchLabel={texts.search}
      emptyText={texts.empty}
      loadingText={t("searching")}
      none={allowAny ? texts.any : undefined}
      className={className}
    />
  );
}

/**
 * A consumer, found by typing its name or uid (GET /consumers?q=), chosen by its id. A value given
 * from the address (an id or a uid) is shown by name, read once.
 */
export function ConsumerPicker(props: PickerProps) {
  const { value } = props;
  const t = useTranslations("names.pickers");
  const lookup = usePickerLookup({
    value,
    list: (q) => ({ key: pickerKeys.consumers(q), fetch: (call) => call("GET /consumers", `/consumers?${new URLSearchParams({ limit: "20", ...(q ? { q } : {}) })}`) }),
    one: { key: pickerKeys.consumer(value), fetch: (call) => call("GET /consumers/{consumer}", `/consumers/${encodeURIComponent(value)}`) },
    inList: (items) => items.find((c) => c.id === value || c.uid === value),
  });
  const consumer = lookup.picked;
  return (
    <PickerCombobox
      {...props}
      value={consumer?.id ?? value}
      lookup={lookup}
      shown={consumer && { label: consumer.name, detail: consumer.uid, title: consumer.id }}
      options={lookup.matches.map((c) => ({ value: c.id, label: c.name, detail: c.uid, title: c.id }))}
      texts={{ any: t("anyConsumer"), choose: t("chooseConsumer"), search: t("searchConsumers"), empty: t("noMatch") }}
    />
  );
}

/**
 * An endpoint of any consumer (or of `consumer` alone), found by typing its URL, its description or
 * its consumer's name or uid (GET /endpoints?q=), chosen by its id, shown by its description or URL.
 */
export function EndpointPicker({ consumer, ...props }: PickerProps & { consumer?: string }) {
  const { value } = props;
  const t = useTranslations("names.pickers");
  const lookup = usePickerLookup({
    value,
    list: (q) => ({
      key: pickerKeys.endpoints(q, consumer ?? ""),
      fetch: (call) => call("GET /endpoints", `/endpoints?${new URLSearchParams({ limit: "20", ...(q ? { q } : {}), ...(consumer ? { consumer } : {}) })}`),
    }),
    one: { key: pickerKeys.endpoint(value), fetch: (call) => call("GET /endpoints/{id}", `/endpoints/${encodeURIComponent(value)}`) },
    inList: (items) => items.find((e) => e.id === value),
  });
  const endpoint = lookup.picked;
  const options: ComboboxOption[] = lookup.matches.map((e) => ({
    value: e.id,
    label: endpointLabel(e),
    // Beside a description, the URL; and whose it is, where the list spans consumers.
    detail: [e.description ? shortUrl(e.url) : null, consumer ? null : e.consumer?.name].filter(Boolean).join(" · ") || undefined,
    title: `${e.url}\n${e.id}`,
  }));
  return (
    <PickerCombobox
      {...props}
      lookup={lookup}
      shown={endpoint && { label: endpointLabel(endpoint), title: `${endpoint.url}\n${endpoint.id}` }}
      options={options}
      texts={{ any: t("anyEndpoint"), choose: t("chooseEndpoint"), search: t("searchEndpoints"), empty: lookup.failed ? t("notFound") : t("noMatch") }}
    />
  );
}
