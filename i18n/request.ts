import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { LOCALE_COOKIE, TIME_ZONE_COOKIE, pickLocale, pickTimeZone } from "@/lib/i18n/locale";

// No locale in the URL: the dashboard's addresses stay the same in every language.
export default getRequestConfig(async () => {
  const jar = await cookies();
  const locale = pickLocale(jar.get(LOCALE_COOKIE)?.value, (await headers()).get("accept-language"));
  return {
    locale,
    timeZone: pickTimeZone(jar.get(TIME_ZONE_COOKIE)?.value),
    messages: (await import(`../messages/${locale}.json`)).default,
  };
});
