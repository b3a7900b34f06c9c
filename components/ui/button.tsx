import { Slot } from "@radix-ui/react-slot";
import type { ComponentProps } from "react";
import { cn } from "./cn";

const VARIANTS = {
  primary: "bg-primary text-primary-foreground hover:opacity-90",
  secondary: "border border-border bg-surface text-foreground hover:bg-muted",
  danger: "bg-danger text-danger-foreground hover:opacity-90",
  ghost: "text-foreground hover:bg-muted",
} as const;

const SIZES = { md: "h-9 px-3.5 text-sm", sm: "h-8 px-2.5 text-xs", icon: "h-8 w-8 p-0" } as const;

export type ButtonProps = ComponentProps<"button"> & {
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
  asChild?: boolean;
};

export function Button({ variant = "primary", size = "md", asChild, className, type, ...props }: ButtonProps) {
  const Component = asChild ? Slot : "button";
  return (
    <Component
      type={asChild ? undefined : (type ?? "button")}
      className={cn(
        "inline-flex shrink-0 items-center justify-center gap-1.5 rounded-md font-medium whitespace-nowrap transition",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50",
        VARIANTS[variant],
        SIZES[size],
        className,
      )}
      {...props}
    />
  );
}
