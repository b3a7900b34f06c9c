import { Bell, BookOpen, Database, History, KeyRound, LayoutDashboard, Mail, RotateCcw, Users, UserCog } from "lucide-react";

/** Every section of the dashboard, in sidebar order. */
export const NAV_GROUPS = [
  {
    key: "delivery",
    items: [
      { key: "overview", href: "/", icon: LayoutDashboard },
      { key: "consumers", href: "/consumers", icon: Users },
      { key: "messages", href: "/messages", icon: Mail },
      { key: "recoveries", href: "/recoveries", icon: RotateCcw },
      { key: "alerts", href: "/alerts", icon: Bell },
    ],
  },
  {
    key: "configuration",
    items: [
      { key: "eventTypes", href: "/event-types", icon: BookOpen },
      { key: "apiKeys", href: "/api-keys", icon: KeyRound },
      { key: "operators", href: "/operators", icon: UserCog },
      { key: "audit", href: "/audit", icon: History },
      { key: "data", href: "/data", icon: Database },
    ],
  },
] as const;

export type NavKey = (typeof NAV_GROUPS)[number]["items"][number]["key"];
