"use client";

import { Toaster as Sonner } from "sonner";

export function Toaster({ theme }: { theme: "light" | "dark" | "system" }) {
  return <Sonner theme={theme} richColors closeButton position="bottom-right" />;
}
