import type { LucideIcon } from "lucide-react";
import { cn } from "./cn";

/** What is (not) here and what to do next. */
export function EmptyState({
  icon: Icon,
  title,
  description,
  action,
  className,
}: {
  icon: LucideIcon;
  title: string;
  description: React.ReactNode;
  action?: React.ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("flex flex-col items-center px-6 py-14 text-center", className)}>
      <div className="mb-4 rounded-full bg-muted p-3 text-muted-foreground">
        <Icon aria-hidden className="h-6 w-6" />
      </div>
      <h2 className="text-base font-semibold">{title}</h2>
      <div className="mt-1 max-w-md space-y-1 text-sm text-muted-foreground">{typeof description === "string" ? <p>{description}</p> : description}</div>
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
