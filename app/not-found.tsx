import { FileQuestion } from "lucide-react";
import { getTranslations } from "next-intl/server";
import { EmptyState } from "@/components/ui/empty-state";

export default async function NotFound() {
  const t = await getTranslations("errors");
  return (
    <main className="mx-auto max-w-xl p-6">
      <EmptyState icon={FileQuestion} title={t("notFoundTitle")} description={t("notFoundDescription")} />
    </main>
  );
}
