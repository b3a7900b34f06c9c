import { describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { splitHosts } from "../database-url";
import { failoverSocket } from "./hosts";

describe("a DATABASE_URL with several hosts", () => {
  it("names each host, with the URL for it alone and what it must be", () => {
    const { hosts, urlFor, target } = splitHosts("postgres://app:s3cret@db1:5433,db2,[::1]:6000/webhooks?sslmode=require&target_session_attrs=read-write");
    expect(hosts).toEqual([
      { host: "db1", port: 5433 },
      { host: "db2", port: 5432 },
      { host: "::1", port: 6000 },
    ]);
    expect(target).toBe("read-write");
    expect(urlFor(hosts[1]!)).toBe("postgres://app:s3cret@db2:5432/webhooks?sslmode=require");
    expect(urlFor(hosts[2]!)).toBe("postgres://app:s3cret@[::1]:6000/webhooks?sslmode=require");
  });

  it("leaves a plain one-host URL to the drivers, and refuses a target it does not implement", () => {
    expect(failoverSocket("postgres://app@db1:5432/webhooks")).toBeNull();
    expect(failoverSocket("postgres://app@db1,db2/webhooks")?.url).toBe("postgres://app@db1:5432/webhooks");
    expect(() => splitHosts("postgres://app@db1,db2/webhooks?target_session_attrs=standby")).toThrow(/target_session_attrs=standby/);
  });

  it("is a valid DATABASE_URL, as one host is; text that is no URL is not", () => {
    const base = { ENCRYPTION_KEY: "a".repeat(64) };
    expect(parseConfig({ ...base, DATABASE_URL: "postgres://app:pw@10.0.0.1:5432,10.0.0.2:5432/webhooks?target_session_attrs=read-write" }).DATABASE_URL).toContain("10.0.0.2");
    expect(() => parseConfig({ ...base, DATABASE_URL: "not a url" })).toThrow(/DATABASE_URL/);
  });
});
