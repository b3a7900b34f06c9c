import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { Sidebar } from "@/components/dashboard/sidebar";
import { TopBar } from "@/components/dashboard/top-bar";
import { OperatorProvider } from "@/components/dashboard/operator-context";
import { EnrollmentRequired } from "@/components/dashboard/account/enrollment-required";
import { THEMES, THEME_COOKIE, type Theme } from "@/components/shared/preferences";
import { currentOperator } from "@/lib/auth/current-operator";
import { signOutAction } from "./actions";

// The proxy only checks that a session cookie is valid; this checks the operator still exists and
// the session is open — and, where a second factor is required of everyone, that they have one.
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const operator = await currentOperator();
  if (!operator) redirect("/login");
  const t = await getTranslations("shell");
  const saved = (await cookies()).get(THEME_COOKIE)?.value;
  const theme: Theme = THEMES.includes(saved as Theme) ? (saved as Theme) : "system";
  return (
    <OperatorProvider operator={{ id: operator.id, email: operator.email, role: operator.role }}>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-surface focus:px-3 focus:py-2">
        {t("skipToContent")}
      </a>
      {operator.mustEnroll ? null : <Sidebar />}
      <div className={operator.mustEnroll ? undefined : "md:pl-60"}>
        <TopBar email={operator.email} role={operator.role} theme={theme} signOut={signOutAction} />
        <main id="main" className="mx-auto max-w-6xl px-4 py-8 md:px-8">
          {operator.mustEnroll ? <EnrollmentRequired /> : children}
        </main>
      </div>
    </OperatorProvider>
  );
}
