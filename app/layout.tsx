import type { Metadata } from "next";
import { cookies } from "next/headers";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import { TimeZoneSync } from "@/components/shared/preference-menus";
import { SYSTEM_THEME_SCRIPT, THEMES, THEME_COOKIE, type Theme } from "@/components/shared/preferences";
import { Providers } from "@/components/shared/providers";
import { Toaster } from "@/components/ui/toaster";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("meta");
  return { title: { default: "Webhook Admin", template: "%s · Webhook Admin" }, description: t("description") };
}

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const locale = await getLocale();
  const saved = (await cookies()).get(THEME_COOKIE)?.value;
  const theme: Theme = THEMES.includes(saved as Theme) ? (saved as Theme) : "system";
  return (
    <html lang={locale} className={theme === "dark" ? "dark" : undefined} suppressHydrationWarning>
      <head>{theme === "system" ? <script dangerouslySetInnerHTML={{ __html: SYSTEM_THEME_SCRIPT }} /> : null}</head>
      <body className="min-h-screen font-sans antialiased">
        <NextIntlClientProvider>
          <Providers>
            {children}
            <Toaster theme={theme} />
          </Providers>
          <TimeZoneSync current={await getTimeZone()} />
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
