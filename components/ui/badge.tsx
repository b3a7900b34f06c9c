import type { ComponentProps } from "react";
import { cn } from "./cn";

const TONES = {
  neutral: "bg-muted text-muted-foreground",
  primary: "bg-primary/12 text-primary",
  success: "bg-success/15 text-success",
  danger: "bg-danger/12 text-danger",
  warning: "bg-warning/20 text-foreground",
} as const;

export function Badge({ tone = "neutral", className, ...props }: ComponentProps<"span"> & { tone?: keyof typeof TONES }) {
  return <span className={cn("inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium", TONES[tone], className)} {...props} />;
}
