/** The dashboard's and portal's languages; messages/<locale>.json holds each one's strings. */
export const LOCALES = ["en", "ja"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
export const LOCALE_COOKIE = "NEXT_LOCALE";
export const TIME_ZONE_COOKIE = "tz";

const isLocale = (value: string | undefined): value is Locale => LOCALES.includes(value as Locale);

/** The chosen language (cookie) if any, else the best of Accept-Language by its q-values, else English. */
export function pickLocale(cookie: string | undefined, acceptLanguage: string | null): Locale {
  if (isLocale(cookie)) return cookie;
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(params.find((p) => p.trim().startsWith("q="))?.trim().slice(2) ?? 1);
      return { base: tag.toLowerCase().split("-")[0], q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.base).find(isLocale) ?? DEFAULT_LOCALE;
}

/** The viewer's IANA time zone as the browser reported it, if it is one this runtime knows. */
export function pickTimeZone(cookie: string | undefined): string {
  if (!cookie || cookie.length > 64) return "UTC";
  try {
    return new Intl.DateTimeFormat("en", { timeZone: cookie }).resolvedOptions().timeZone;
  } catch {
    return "UTC";
  }
}
