import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_KEYS, ConfigError, parseConfig } from "./config";
import { parseDuration } from "./duration";

const KEY = "ab".repeat(32);

describe("parseDuration", () => {
  it.each([
    ["250ms", 250], ["5s", 5_000], ["5m", 300_000], ["2h", 7_200_000], ["5d", 432_000_000], ["0", 0], ["1500", 1500],
  ])("%s → %d ms", (text, ms) => expect(parseDuration(text)).toBe(ms));
  it.each(["", "5 parsecs", "-5s", "s", "1e3"])("refuses %j", (text) => expect(parseDuration(text)).toBeNull());
});

describe("parseConfig", () => {
  it("applies the documented defaults (docs/configuration.md)", () => {
    const config = parseConfig({ ENCRYPTION_KEY: KEY });
    expect(config).toMatchObject({
      PORT: 3000,
      APP_URL: "http://localhost:3000",
      DELIVERY_TIMEOUT: 15_000,
      RESPONSE_BODY_LIMIT: 1024,
      ENDPOINT_MAX_CONCURRENCY: 10,
      CIRCUIT_FAILURE_THRESHOLD: 5,
      CIRCUIT_OPEN_FOR: 30_000,
      ENDPOINT_DISABLE_AFTER: 5 * 86_400_000,
      ALERT_FAILING_AFTER: 3_600_000,
      ALERT_THROTTLE: 3_600_000,
      SECRET_ROTATION_OVERLAP: 86_400_000,
      IDEMPOTENCY_TTL: 86_400_000,
      MAX_PAYLOAD_BYTES: 1_048_576,
      ALLOW_PRIVATE_ENDPOINTS: false,
      ALLOW_HTTP_ENDPOINTS: false,
      WORKER_CONCURRENCY: 50,
      WORKER_METRICS_PORT: 9464,
      WORKER_METRICS_HOST: "127.0.0.1",
      ALLOWED_ENDPOINT_CIDRS: [],
      TRUST_PROXY: false,
      API_AUTH_FAILURES_PER_MINUTE: 60,
    });
    expect(config.ENCRYPTION_KEY).toHaveLength(32);
  });

  it("reads shrunk policy numbers for tests", () => {
    const config = parseConfig({ ENCRYPTION_KEY: KEY, DELIVERY_SCHEDULE: "0,200ms,1s", DELIVERY_TIMEOUT: "250ms", PORT: "4000" });
    expect(config.DELIVERY_SCHEDULE).toEqual([0, 200, 1000]);
    expect(config.DELIVERY_TIMEOUT).toBe(250);
    expect(config.APP_URL).toBe("http://localhost:4000");
  });

  it("ignores a variable that is no setting: a leftover STATS_ROLLUP=off (removed) stops nothing", () => {
    const config = parseConfig({ ENCRYPTION_KEY: KEY, STATS_ROLLUP: "off" });
    expect(config).not.toHaveProperty("STATS_ROLLUP");
  });

  it("names every bad variable", () => {
    expect(() => parseConfig({ ENCRYPTION_KEY: "short", DELIVERY_TIMEOUT: "soon", PORT: "http" })).toThrow(ConfigError);
    try {
      parseConfig({ ENCRYPTION_KEY: "short", DELIVERY_TIMEOUT: "soon", DELIVERY_SCHEDULE: "0,x", PORT: "http" });
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ["ENCRYPTION_KEY", "DELIVERY_TIMEOUT", "DELIVERY_SCHEDULE", "PORT"]) expect(message).toContain(name);
    }
    expect(() => parseConfig({})).toThrow(/ENCRYPTION_KEY/);
  });

  it("parses ALLOWED_ENDPOINT_CIDRS at start: a bad CIDR stops the process, not a send", () => {
    expect(() => parseConfig({ ENCRYPTION_KEY: KEY, ALLOWED_ENDPOINT_CIDRS: "10.20.0.0/16,10.0.0.0/40" })).toThrow(ConfigError);
    expect(() => parseConfig({ ENCRYPTION_KEY: KEY, ALLOWED_ENDPOINT_CIDRS: "10.0.0.0/40" })).toThrow(/ALLOWED_ENDPOINT_CIDRS: "10\.0\.0\.0\/40" is not a CIDR/);
    const config = parseConfig({ ENCRYPTION_KEY: KEY, ALLOWED_ENDPOINT_CIDRS: "10.20.0.0/16, fd00::/8" });
    expect(config.ALLOWED_ENDPOINT_CIDRS.map((c) => c.text)).toEqual(["10.20.0.0/16", "fd00::/8"]);
  });

  it("takes a database URL with one host or a failover list, and stops at what the connections could not use, without printing it", () => {
    for (const good of ["postgres://app:pw@db:5432/webhooks", "postgresql://app:pw@db1:5432,db2:5433/webhooks?target_session_attrs=read-write", "postgres://app@[::1]:6000,db2/w"]) {
      expect(parseConfig({ ENCRYPTION_KEY: KEY, DATABASE_URL: good }).DATABASE_URL).toBe(good);
    }
    const problems = (url: string) => {
      try {
        parseConfig({ ENCRYPTION_KEY: KEY, DATABASE_READ_URL: url });
        return "";
      } catch (error) {
        return String(error);
      }
    };
    for (const bad of ["mysql://app:hunter2secret@db/w", "db:5432", "postgres://app:hunter2secret@db:notaport/w"]) {
      expect(problems(bad)).toMatch(/DATABASE_READ_URL: a postgres:\/\/ URL/);
      expect(problems(bad)).not.toContain("hunter2secret");
    }
    // What the worker's connections would refuse at their first connect is refused at the start.
    expect(problems("postgres://app:hunter2secret@db1,db2/w?target_session_attrs=standby")).toMatch(/target_session_attrs=standby is not supported/);
  });

  it("stops at a bad pool size or SMTP URL, and never prints the SMTP URL's password", () => {
    expect(() => parseConfig({ ENCRYPTION_KEY: KEY, DATABASE_POOL_SIZE: "abc" })).toThrow(/DATABASE_POOL_SIZE/);
    expect(() => parseConfig({ ENCRYPTION_KEY: KEY, DATABASE_POOL_SIZE: "0" })).toThrow(/DATABASE_POOL_SIZE/);
    expect(parseConfig({ ENCRYPTION_KEY: KEY, DATABASE_POOL_SIZE: "30" }).DATABASE_POOL_SIZE).toBe(30);
    for (const bad of ["mail.example.com:587", "https://user:hunter2secret@mail.example.com"]) {
      let message = "";
      try {
        parseConfig({ ENCRYPTION_KEY: KEY, SMTP_URL: bad });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
      expect(message).not.toContain("hunter2secret");
    }
    expect(parseConfig({ ENCRYPTION_KEY: KEY, SMTP_URL: "smtps://user:pw@mail.example.com:465" }).SMTP_URL).toBe("smtps://user:pw@mail.example.com:465");
  });
});

describe("every setting, in the docs and the deploy files", () => {
  it("is documented in docs/configuration.md and listed in deploy/env.example, which compose passes whole to each app container", () => {
    const docs = readFileSync("docs/configuration.md", "utf8");
    const example = readFileSync("deploy/env.example", "utf8");
    for (const key of CONFIG_KEYS) {
      expect(docs, `docs/configuration.md documents ${key}`).toContain(`\`${key}\``);
      expect(example, `deploy/env.example lists ${key}`).toMatch(new RegExp(`^(# )?${key}=`, "m"));
    }
    // The app services share the x-app block, and it reads deploy/.env whole: a setting in the
    // file reaches the container without a line of its own here (TRUST_PROXY could not, before).
    const compose = readFileSync("deploy/compose.yaml", "utf8");
    const app = /^x-app: &app\n((?: .*\n|\n)+)/m.exec(compose)?.[1] ?? "";
    expect(app).toMatch(/^ {2}env_file: \.env$/m);
    for (const service of ["migrate", "web", "worker"]) {
      expect(compose, `${service} is an x-app service`).toMatch(new RegExp(`^ {2}${service}:\n {4}<<: \\*app$`, "m"));
    }
  });
});
