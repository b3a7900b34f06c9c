import type { LucideIcon } from "lucide-react";

/**
 * Nothing to show inside a card or a dialog, in words: what is (not) here and what it means. The
 * small sibling of EmptyState, which fills a page.
 */
export function EmptyNote({ icon: Icon, title, body, testId }: { icon: LucideIcon; title: string; body: string; testId?: string }) {
  return (
    <div className="flex items-start gap-3 rounded-md border border-dashed border-border p-3 text-sm" data-testid={testId}>
      <Icon aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-muted-foreground" />
      <div>
        <p className="font-medium">{title}</p>
        <p className="mt-1 text-muted-foreground">{body}</p>
      </div>
    </div>
  );
}
