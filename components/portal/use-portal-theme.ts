"use client";

import { useEffect } from "react";
import { accentPalette } from "@/lib/portal/accent";

/**
 * Puts the link's mode and accent on <html> (dialogs and menus render outside the portal's tree,
 * so a wrapper's variables would not reach them), following the system while the mode is auto.
 */
export function usePortalTheme(accent: string | null, mode: "light" | "dark" | "auto") {
  useEffect(() => {
    const html = document.documentElement;
    const query = window.matchMedia("(prefers-color-scheme: dark)");
    const apply = () => {
      const dark = mode === "dark" || (mode === "auto" && query.matches);
      html.classList.toggle("dark", dark);
      if (!accent) return;
      const palette = accentPalette(accent, dark ? "dark" : "light");
      html.style.setProperty("--primary", palette.primary);
      html.style.setProperty("--ring", palette.primary);
      html.style.setProperty("--primary-foreground", palette.primaryForeground);
    };
    apply();
    query.addEventListener("change", apply);
    return () => {
      query.removeEventListener("change", apply);
      for (const name of ["--primary", "--ring", "--primary-foreground"]) html.style.removeProperty(name);
    };
  }, [accent, mode]);
}
