import type { ComponentProps } from "react";
import { cn } from "./cn";

export function Table({ className, ...props }: ComponentProps<"table">) {
  return (
    <div className="w-full overflow-x-auto">
      <table className={cn("w-full text-left text-sm", className)} {...props} />
    </div>
  );
}
export const THead = (props: ComponentProps<"thead">) => <thead className="border-b border-border text-xs text-muted-foreground" {...props} />;
export const TBody = (props: ComponentProps<"tbody">) => <tbody className="divide-y divide-border" {...props} />;
export const Tr = ({ className, ...props }: ComponentProps<"tr">) => <tr className={cn("align-middle", className)} {...props} />;
export const Th = ({ className, ...props }: ComponentProps<"th">) => (
  <th scope="col" className={cn("px-4 py-2.5 font-medium", className)} {...props} />
);
export const Td = ({ className, ...props }: ComponentProps<"td">) => <td className={cn("px-4 py-3", className)} {...props} />;
