import { describe, expect, it } from "vitest";
import { routeTemplate } from "./web";

describe("routeTemplate", () => {
  it("puts each param's name where its value stood, as the route's folder under app/ spells it", () => {
    expect(routeTemplate("/api/v1/messages/msg_01abc/resend", { id: "msg_01abc" })).toBe("/api/v1/messages/[id]/resend");
    expect(routeTemplate("/api/v1/consumers/acme/endpoints", { consumer: "acme" })).toBe("/api/v1/consumers/[consumer]/endpoints");
    expect(routeTemplate("/api/v1/consumers", {})).toBe("/api/v1/consumers");
    expect(routeTemplate("/api/v1/consumers/a%20b", { consumer: "a b" })).toBe("/api/v1/consumers/[consumer]");
  });

  it("folds a catch-all's segments into one, so an unknown path is one series", () => {
    expect(routeTemplate("/api/v1/no/such/thing", { path: ["no", "such", "thing"] })).toBe("/api/v1/[...path]");
    expect(routeTemplate("/api/v1/no/such/thing", { path: "no/such/thing" })).toBe("/api/v1/[...path]");
  });

  it("names a value that repeats a static segment at its own place only", () => {
    expect(routeTemplate("/api/v1/consumers/consumers", { consumer: "consumers" })).toBe("/api/v1/consumers/[consumer]");
  });
});
