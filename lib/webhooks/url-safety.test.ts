import { describe, expect, it } from "vitest";
import { checkEndpointUrl, forbiddenAddressReason, parseCidrList, vetAddress, type UrlPolicy } from "./url-safety";

const strict: UrlPolicy = { allowHttp: false, allowPrivate: false, allowCidrs: [] };

describe("forbiddenAddressReason", () => {
  it.each([
    "127.0.0.1", "127.255.0.1", "0.0.0.0", "10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.1.1",
    "100.64.0.1", "169.254.169.254", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fd00::1",
    "fc00::5", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe",
    "2002:7f00:1::", "2002:a9fe:a9fe::1", "::127.0.0.1",
  ])("refuses %s", (ip) => {
    expect(forbiddenAddressReason(ip)).not.toBeNull();
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:93.184.216.34", "2002:5db8:d822::1", "::ffff:0:808:808", "64:ff9b::808:808"])(
    "allows %s",
    (ip) => {
      expect(forbiddenAddressReason(ip)).toBeNull();
    },
  );

  // Each of these threw inside ipaddr.js (toIPv4Address) or read the IPv4 at the wrong offset.
  it.each([
    ["::ffff:0:7f00:1", /embeds 127\.0\.0\.1 is a loopback/],
    ["::ffff:0:a00:1", /embeds 10\.0\.0\.1 is a private/],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", /embeds 127\.0\.0\.1/],
    // RFC 8215's local-use NAT64 prefix: the IPv4's offset depends on the translator's prefix length.
    ["64:ff9b:1::808:808", /local-use NAT64/],
    ["64:ff9b:1:808:8:800::", /local-use NAT64/],
    ["64:ff9b:7f00:1::", /local-use NAT64/],
  ])("judges %s by what it embeds, without throwing", (ip, reason) => {
    expect(forbiddenAddressReason(ip)).toMatch(reason);
  });

  it("refuses, rather than throws on, anything it cannot judge", () => {
    for (const value of ["", "::ffff:0:1.2.3", "not an address", "1".repeat(5000)]) {
      expect(() => vetAddress(value, { allowPrivate: false, allowCidrs: [] })).not.toThrow();
      expect(vetAddress(value, { allowPrivate: false, allowCidrs: [] })).not.toBeNull();
    }
  });
});

describe("checkEndpointUrl", () => {
  it.each([
    "https://127.0.0.1/", "https://127.1/", "https://2130706433/", "https://0x7f000001/", "https://[::1]/",
    "https://[::ffff:127.0.0.1]/", "https://0.0.0.0/", "https://169.254.169.254/latest/meta-data", "https://10.0.0.1/",
    "https://172.16.0.1/", "https://192.168.0.1/", "https://100.64.0.1/", "https://[fd00::1]/", "https://localhost/",
    "https://api.localhost/", "https://metadata.google.internal/",
  ])("refuses the internal URL %s", (url) => {
    const check = checkEndpointUrl(url, strict);
    expect(check.ok).toBe(false);
  });

  it("refuses other schemes, credentials and plain http unless allowed", () => {
    expect(checkEndpointUrl("ftp://example.com/", strict).ok).toBe(false);
    expect(checkEndpointUrl("https://u:p@example.com/", strict).ok).toBe(false);
    expect(checkEndpointUrl("http://example.com/", strict).ok).toBe(false);
    expect(checkEndpointUrl("http://example.com/", { ...strict, allowHttp: true }).ok).toBe(true);
    expect(checkEndpointUrl("https://example.com/hook?x=1", strict)).toMatchObject({ ok: true });
    expect(checkEndpointUrl("http://127.0.0.1:8080/", { ...strict, allowHttp: true, allowPrivate: true }).ok).toBe(true);
  });

  it("marks unparseable URLs as invalid rather than forbidden", () => {
    expect(checkEndpointUrl("not a url", strict)).toMatchObject({ ok: false, invalid: true });
  });
});

describe("ALLOWED_ENDPOINT_CIDRS", () => {
  it("parses CIDRs and refuses anything else", () => {
    expect(parseCidrList(" 10.20.0.0/16 , ::1/128,").map((c) => c.text)).toEqual(["10.20.0.0/16", "::1/128"]);
    for (const bad of ["10.0.0.0/40", "10.0.0.0", "127.1/8", "::1/129", "fd00::/x", "example.com/8"]) {
      expect(() => parseCidrList(bad), bad).toThrow(/is not a CIDR/);
    }
  });

  it("lets through exactly the allowed ranges, in their IPv4-mapped form too", () => {
    const policy = { allowPrivate: false, allowCidrs: parseCidrList("10.20.0.0/16,::ffff:192.168.7.0/120") };
    expect(vetAddress("10.20.3.4", policy)).toBeNull();
    expect(vetAddress("::ffff:10.20.3.4", policy)).toBeNull();
    expect(vetAddress("192.168.7.9", policy)).toBeNull();
    expect(vetAddress("10.21.0.1", policy)).not.toBeNull();
    expect(vetAddress("169.254.169.254", policy)).not.toBeNull();
    expect(vetAddress("93.184.216.34", policy)).toBeNull();
  });

  it("is honoured at create time: a literal address inside an allowed range is accepted", () => {
    const policy: UrlPolicy = { ...strict, allowCidrs: parseCidrList("10.20.0.0/16") };
    expect(checkEndpointUrl("https://10.20.0.5/hook", policy).ok).toBe(true);
    expect(checkEndpointUrl("https://10.21.0.5/hook", policy).ok).toBe(false);
    expect(checkEndpointUrl("https://169.254.169.254/", policy).ok).toBe(false);
  });

  it("with loopback allowed (the embedded demo), accepts localhost and refuses metadata and private addresses", () => {
    const demo: UrlPolicy = { allowHttp: true, allowPrivate: false, allowCidrs: parseCidrList("127.0.0.0/8,::1/128") };
    for (const url of ["http://localhost:8080/", "http://127.0.0.1:9000/in", "http://[::1]:9000/"]) expect(checkEndpointUrl(url, demo).ok, url).toBe(true);
    for (const url of ["http://169.254.169.254/latest/meta-data", "http://10.0.0.1/", "http://metadata.google.internal/", "http://192.168.1.1/", "http://[fd00::1]/"]) {
      expect(checkEndpointUrl(url, demo).ok, url).toBe(false);
    }
  });
});
