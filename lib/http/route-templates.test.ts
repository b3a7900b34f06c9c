import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTE_TEMPLATES, routeTemplate, UNMATCHED_ROUTE } from "./route-templates";

/** The folders of app/ that hold a route.ts, as Next.js names their routes. */
function routeFolders(dir = "app"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? routeFolders(path.join(dir, entry.name)) : entry.name === "route.ts" ? [`/${dir.split(path.sep).slice(1).filter((segment) => !/^\(.+\)$/.test(segment)).join("/")}`] : [],
  );
}

describe("routeTemplate", () => {
  it("knows every route of app/, and nothing else", () => {
    expect([...ROUTE_TEMPLATES].sort()).toEqual(routeFolders().sort());
  });

  it("names the route a path reaches, as its folder spells it", () => {
    expect(routeTemplate("/api/v1/messages/msg_01abc/resend")).toBe("/api/v1/messages/[id]/resend");
    expect(routeTemplate("/api/v1/consumers/acme/endpoints")).toBe("/api/v1/consumers/[consumer]/endpoints");
    expect(routeTemplate("/api/v1/consumers")).toBe("/api/v1/consumers");
    expect(routeTemplate("/api/v1/consumers/a%20b")).toBe("/api/v1/consumers/[consumer]");
    expect(routeTemplate("/api/v1/app/app_1/msg/msg_1/endpoint/ep_1/resend")).toBe("/api/v1/app/[app_id]/msg/[msg_id]/endpoint/[endpoint_id]/resend");
    expect(routeTemplate("/api/health/ready")).toBe("/api/health/ready");
    expect(routeTemplate("/api/auth/callback/credentials")).toBe("/api/auth/[...nextauth]");
    expect(routeTemplate("/ingest/api/v1/source/src_1/endpoint")).toBe("/ingest/api/v1/[...path]");
  });

  it("prefers a static segment to a dynamic one, and a dynamic one to a catch-all, as Next.js routes", () => {
    expect(routeTemplate("/api/v1/messages/batch")).toBe("/api/v1/messages/batch");
    expect(routeTemplate("/api/v1/consumers/consumers")).toBe("/api/v1/consumers/[consumer]");
    expect(routeTemplate("/api/v1/app/app_1")).toBe("/api/v1/app/[app_id]");
    // No route under /app/[app_id] is named `integration`: the Svix catch-all serves it.
    expect(routeTemplate("/api/v1/app/app_1/integration/x")).toBe("/api/v1/app/[...rest]");
    expect(routeTemplate("/api/v1/no/such/thing")).toBe("/api/v1/[...path]");
  });

  it("never takes text from the path: an encoded / does not split a segment, and what no route serves is one bucket", () => {
    const split = Array.from({ length: 8 }, (_, i) => `x${i}`).join("%2F");
    expect(routeTemplate(`/api/v1/messages/${split}`)).toBe("/api/v1/messages/[id]");
    expect(routeTemplate(`/api/v1/messages/${split}/attempts`)).toBe("/api/v1/messages/[id]/attempts");
    expect(routeTemplate(`/api/v1/app/${split}/msg/${split}`)).toBe("/api/v1/app/[app_id]/msg/[msg_id]");
    // The path a Host header of `x/anything?` made of the request's URL, before the web server's origin was fixed.
    expect(routeTemplate("/anything")).toBe(UNMATCHED_ROUTE);
    expect(routeTemplate("/")).toBe(UNMATCHED_ROUTE);
    expect(routeTemplate("/api/v1")).toBe(UNMATCHED_ROUTE);
    expect(routeTemplate("/api/nothing/here")).toBe(UNMATCHED_ROUTE);
    const labels = new Set(Array.from({ length: 1000 }, (_, i) => routeTemplate(`/api/v1/${"a%2F".repeat(i % 7)}${i}/${i}`)));
    expect([...labels]).toEqual(["/api/v1/[...path]"]);
  });
});
