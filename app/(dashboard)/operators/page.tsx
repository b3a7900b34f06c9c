import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { OperatorsScreen } from "@/components/dashboard/operators/operators-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("operators"))("title") };
}

export default function OperatorsPage() {
  return <OperatorsScreen />;
}
