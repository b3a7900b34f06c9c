"use client";

import { useQueryClient } from "@tanstack/react-query";
import { NextIntlClientProvider, type AbstractIntlMessages } from "next-intl";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { LOCALES, pickLocale, type Locale } from "@/lib/i18n/locale";
import { api, ApiError, fetchApi, type ApiCall, type ApiInit, type FileRoute } from "../shared/api";
import { ApiProvider } from "../shared/api-context";
import { ErrorMessage } from "../shared/error-message";
import { Skeleton } from "../ui/skeleton";
import { hostOrigin, postToHost, type HostMessage } from "./host-messages";
import { PortalChrome } from "./portal-chrome";
import { PortalEnded, type EndReason } from "./portal-ended";
import { PortalSessionContext, type PortalSession, type PortalTheme } from "./session-context";
import { clearSession, fragmentToken, openSession, readChosenLocale, writeChosenLocale, type StoredSession } from "./session-store";
import { usePortalTheme } from "./use-portal-theme";

type State = { kind: "loading" } | { kind: "ready"; session: StoredSession } | { kind: "ended"; reason: EndReason } | { kind: "failed"; error: unknown };

export type PortalDefaults = { name: string; logoUrl: string | null; accent: string | null };

const isLocale = (value: string | null | undefined): value is Locale => LOCALES.includes(value as Locale);

// Session tokens the customer signed out of: a call still in flight then is answered 401 too, and
// that is the sign-out, not an expiry, so it must not replace the sign-out's screen.
const signedOut = new Set<string>();

/**
 * The portal's root on the client: turns the link's token into a session (once), keeps it per tab,
 * ends it in words when the server says 401, and gives every screen below the session, its
 * language (both message sets are here: a framing page's browser sends no locale cookie) and the
 * bearer-calling API. Until a session exists nothing below is rendered.
 */
export function PortalShell({
  defaults,
  frameAncestors,
  messages,
  initialLocale,
  initialTimeZone,
  children,
}: {
  defaults: PortalDefaults;
  frameAncestors: string[];
  messages: Record<Locale, AbstractIntlMessages>;
  initialLocale: Locale;
  initialTimeZone: string;
  children: React.ReactNode;
}) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>({ kind: "loading" });
  // Read once on the client. The server renders only the loading skeleton, which has no text, so
  // a browser language or zone differing from the server's guess changes nothing at hydration.
  const onClient = typeof window !== "undefined";
  const [chosen, setChosen] = useState<Locale | null>(() => {
    const saved = onClient ? readChosenLocale() : null;
    return isLocale(saved) ? saved : null;
  });
  const [browserLocale] = useState<Locale>(() => (onClient ? pickLocale(undefined, navigator.languages.join(",")) : initialLocale));
  const [timeZone] = useState(() => (onClient ? Intl.DateTimeFormat().resolvedOptions().timeZone || initialTimeZone : initialTimeZone));
  const [host] = useState(() => (onClient ? hostOrigin(frameAncestors) : null));
  const root = useRef<HTMLDivElement>(null);

  const post = useCallback((message: HostMessage) => postToHost(host, message), [host]);

  const end = useCallback(
    (reason: EndReason) => {
      clearSession();
      queryClient.clear();
      setState({ kind: "ended", reason });
      post({ type: "session.expired", reason });
    },
    [post, queryClient],
  );

  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    void openSession().then((opened) => {
      if (!current) return;
      if (opened.kind === "ended") return end(opened.reason);
      if (opened.kind === "ready") queryClient.clear();
      setState(opened);
    });
    return () => {
      current = false;
    };
  }, [attempt, end, queryClient]);
  useEffect(() => {
    // A host handing an open portal a new link changes only the fragment: no reload, so listen.
    const onHash = () => {
      if (fragmentToken()) setAttempt((n) => n + 1);
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  const retry = useCallback(() => {
    setState({ kind: "loading" });
    setAttempt((n) => n + 1);
  }, []);

  const session = state.kind === "ready" ? state.session : null;
  const linkLocale = session && isLocale(session.locale) ? session.locale : null;
  const locale: Locale = chosen ?? linkLocale ?? browserLocale;
  const theme: PortalTheme = {
    name: session?.theme.name ?? defaults.name,
    logoUrl: session?.theme.logo_url ?? defaults.logoUrl,
    accent: session?.theme.accent ?? defaults.accent,
    mode: session?.theme.mode ?? "auto",
  };
  usePortalTheme(theme.accent, theme.mode);

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const token = session?.session_token ?? null;
  const call = useMemo<ApiCall>(
    () =>
      (async (route: FileRoute, path: string, init: ApiInit & { as?: "blob" } = {}) => {
        try {
          return await fetchApi(route, path, { ...init, token: token ?? undefined });
        } catch (error) {
          // Expired, revoked (the SaaS ended its sessions) or its consumer deleted: nothing more will work.
          if (error instanceof ApiError && error.problem.status === 401 && !(token && signedOut.has(token))) end("expired");
          throw error;
        }
      }) as ApiCall,
    [token, end],
  );

  const signOut = useCallback(async () => {
    if (token) signedOut.add(token);
    if (token) await api("DELETE /portal/session", "/portal/session", { token }).catch(() => undefined);
    end("signed_out");
  }, [token, end]);

  const setLocale = useCallback((next: Locale) => {
    setChosen(next);
    writeChosenLocale(next);
  }, []);

  const value = useMemo<PortalSession | null>(
    () =>
      session
        ? {
            consumerId: session.consumer_id,
            capabilities: session.capabilities,
            can: (capability) => session.capabilities.includes(capability),
            // A session kept in the tab from before the answer said so: its view_secrets rotates, as it did then.
            mayRotateSecrets: session.may_rotate_secrets ?? session.capabilities.includes("view_secrets"),
            theme,
            locale,
            setLocale,
            expiresAt: session.expires_at,
            signOut,
          }
        : null,
    // theme is rebuilt each render from these fields.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [session, theme.name, theme.logoUrl, theme.accent, theme.mode, locale, setLocale, signOut],
  );

  useEffect(() => {
    if (session) post({ type: "ready", consumer_id: session.consumer_id, locale });
    // Once per session, not per language switch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session, post]);

  useEffect(() => {
    const element = root.current;
    if (!element || !host) return;
    let last = 0;
    const observer = new ResizeObserver(() => {
      const height = Math.ceil(element.getBoundingClientRect().height);
      if (height !== last) {
        last = height;
        post({ type: "resize", height });
      }
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [host, post, state.kind]);

  return (
    <NextIntlClientProvider locale={locale} messages={messages[locale]} timeZone={timeZone}>
      <div ref={root} data-testid="portal-root">
        {value ? (
          <PortalSessionContext.Provider value={value}>
            <ApiProvider call={call}>
              <PortalChrome>{children}</PortalChrome>
            </ApiProvider>
          </PortalSessionContext.Provider>
        ) : state.kind === "ended" ? (
          <PortalEnded reason={state.reason} productName={theme.name} />
        ) : state.kind === "failed" ? (
          <div className="mx-auto max-w-xl py-16">
            <ErrorMessage error={state.error} retry={retry} />
          </div>
        ) : (
          <div className="mx-auto max-w-5xl space-y-4 px-4 py-8" aria-busy="true">
            <Skeleton className="h-10 w-64" />
            <Skeleton className="h-48 w-full" />
          </div>
        )}
      </div>
    </NextIntlClientProvider>
  );
}
