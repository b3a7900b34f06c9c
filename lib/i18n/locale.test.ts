import { describe, expect, it } from "vitest";
import { pickLocale, pickTimeZone } from "./locale";

describe("pickLocale", () => {
  it("takes the cookie when it names a language we have", () => {
    expect(pickLocale("ja", "en-US,en;q=0.9")).toBe("ja");
    expect(pickLocale("fr", "ja")).toBe("ja");
  });
  it("otherwise ranks Accept-Language by q", () => {
    expect(pickLocale(undefined, "fr-FR,ja;q=0.8,en;q=0.5")).toBe("ja");
    expect(pickLocale(undefined, "en;q=0.2, ja-JP;q=0.9")).toBe("ja");
    expect(pickLocale(undefined, "ja;q=0, en")).toBe("en");
    expect(pickLocale(undefined, "de, fr")).toBe("en");
    expect(pickLocale(undefined, null)).toBe("en");
  });
});

describe("pickTimeZone", () => {
  it("keeps a real IANA zone and drops anything else", () => {
    expect(pickTimeZone("Asia/Tokyo")).toBe("Asia/Tokyo");
    expect(pickTimeZone("Not/AZone")).toBe("UTC");
    expect(pickTimeZone(undefined)).toBe("UTC");
  });
});
