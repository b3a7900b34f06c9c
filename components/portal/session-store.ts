import { api, ApiError } from "../shared/api";
import type { PortalSessionAnswer } from "@/lib/portal/schemas";

/** POST /portal/session's answer, kept per tab in sessionStorage so a reload stays signed in. */
/** The exchange's answer as the tab keeps it; one kept before `may_rotate_secrets` was answered lacks it. */
export type StoredSession = Omit<PortalSessionAnswer, "may_rotate_secrets"> & { may_rotate_secrets?: boolean };

const SESSION_KEY = "webhook-admin.portal.session";
const LOCALE_KEY = "webhook-admin.portal.locale";

function storage(): Storage | null {
  // A sandboxed or privacy-locked frame may refuse storage: the portal then lasts as long as the page.
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function readSession(): StoredSession | null {
  try {
    const parsed = JSON.parse(storage()?.getItem(SESSION_KEY) ?? "null") as StoredSession | null;
    return parsed && typeof parsed.session_token === "string" && parsed.session_token.startsWith("ps_") ? parsed : null;
  } catch {
    return null;
  }
}

export function writeSession(session: StoredSession): void {
  try {
    storage()?.setItem(SESSION_KEY, JSON.stringify(session));
  } catch {
    // Full or refused: the session still works until the page is left.
  }
}

export function clearSession(): void {
  try {
    storage()?.removeItem(SESSION_KEY);
  } catch {
    // Nothing stored to clear.
  }
}

export const readChosenLocale = (): string | null => {
  try {
    return storage()?.getItem(LOCALE_KEY) ?? null;
  } catch {
    return null;
  }
};

export function writeChosenLocale(locale: string): void {
  try {
    storage()?.setItem(LOCALE_KEY, locale);
  } catch {
    // The switch then lasts until a reload.
  }
}

const exchanges = new Map<string, Promise<StoredSession>>();

/**
 * A link's token is good for one exchange, so a second mount of the same page (React's strict
 * mode, a remount) must share the first POST instead of spending a used token and failing.
 */
export function exchangeToken(token: string): Promise<StoredSession> {
  let pending = exchanges.get(token);
  if (!pending) {
    // The exchange's answer is documented in words, with no schema to type it by.
    pending = api("POST /portal/session", "/portal/session", { body: { token } }) as Promise<StoredSession>;
    exchanges.set(token, pending);
    pending.catch(() => exchanges.delete(token));
  }
  return pending;
}

/** The link's `#token=pt_…`, if the page was opened from one. */
export function fragmentToken(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get("token");
  return token && token.startsWith("pt_") ? token : null;
}

/**
 * Takes the spent token out of the address bar and history, so it is not copied, bookmarked or
 * shared. The state must be null: Next's router treats a call carrying its own state as its own and
 * would put its remembered address, token and all, back at its next update.
 */
export function dropFragment(): void {
  window.history.replaceState(null, "", `${window.location.pathname}${window.location.search}`);
}

export type Opened = { kind: "ready"; session: StoredSession } | { kind: "ended"; reason: "invalid_link" | "expired" | "no_link" } | { kind: "failed"; error: unknown };

/**
 * Where the page starts: a link's token is exchanged (once) and dropped from the address; without
 * one, this tab's stored session carries on; without either there is nothing to show.
 */
export async function openSession(): Promise<Opened> {
  const token = fragmentToken();
  if (!token) {
    const stored = readSession();
    if (!stored) return { kind: "ended", reason: "no_link" };
    if (new Date(stored.expires_at).getTime() <= Date.now()) return { kind: "ended", reason: "expired" };
    return { kind: "ready", session: stored };
  }
  try {
    const session = await exchangeToken(token);
    writeSession(session);
    dropFragment();
    return { kind: "ready", session };
  } catch (error) {
    if (error instanceof ApiError && error.problem.status === 401) {
      dropFragment();
      return { kind: "ended", reason: "invalid_link" };
    }
    // Nothing was spent: the token stays in the address so trying again can use it.
    return { kind: "failed", error };
  }
}
