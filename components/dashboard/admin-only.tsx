"use client";

import { ShieldAlert } from "lucide-react";
import { PageHeader } from "../shared/page-header";
import { Card } from "../ui/card";
import { EmptyState } from "../ui/empty-state";

/** What a viewer sees on a page only admins use: the page's title, and why there is nothing below it. */
export function AdminOnly({ title, emptyTitle, emptyDescription }: { title: string; emptyTitle: string; emptyDescription: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <EmptyState icon={ShieldAlert} title={emptyTitle} description={emptyDescription} />
      </Card>
    </>
  );
}
