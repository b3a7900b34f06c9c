import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { MessagesScreen } from "@/components/dashboard/messages/messages-screen";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("messageLog"))("title") };
}

// useSearchParams needs a Suspense boundary to render on the client.
export default function MessagesPage() {
  return (
    <Suspense>
      <MessagesScreen />
    </Suspense>
  );
}
