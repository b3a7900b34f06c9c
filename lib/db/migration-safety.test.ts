import { describe, expect, it } from "vitest";
import { checkMigrations, splitStatements } from "./migration-safety";
import { parseConcurrent, splitConcurrent } from "./concurrent-statements";

const BP = "\n--> statement-breakpoint\n";
const check = (sql: string, file = "0013_new.sql", before: { file: string; sql: string }[] = []) =>
  checkMigrations([...before, { file, sql }]).map((p) => p.message);

describe("the online-migration check", () => {
  it("refuses an index built without CONCURRENTLY on a table that grows with traffic, and its partitions", () => {
    expect(check(`CREATE INDEX "attempts_status_idx" ON "attempts" USING btree ("status_code");`)[0]).toMatch(/index on attempts.*without CONCURRENTLY/);
    expect(check(`create unique index on only public.messages_2026_12 (event_id);`)[0]).toMatch(/index on messages_2026_12/);
    expect(check(`CREATE INDEX "x" ON "attempt_stats_pending" ("t");`)).toHaveLength(1);
  });

  it("accepts it on a small table, on a table the same migration creates, and in a grandfathered migration", () => {
    expect(check(`CREATE INDEX "endpoints_url_idx" ON "endpoints" ("url");`)).toEqual([]);
    expect(check(`CREATE TABLE "deliveries_archive" ("id" text);${BP}CREATE INDEX "a_idx" ON "deliveries_archive" ("id");`)).toEqual([]);
    expect(check(`CREATE INDEX "attempts_x" ON "attempts" ("id");`, "0012_old.sql")).toEqual([]);
  });

  it("wants CONCURRENTLY out of drizzle's transaction: marked, re-runnable, one statement", () => {
    const marked = `-- concurrently\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "attempts_status_idx" ON "attempts" USING btree ("status_code");`;
    expect(check(marked)).toEqual([]);
    expect(check(`CREATE INDEX CONCURRENTLY IF NOT EXISTS "a" ON "attempts" ("id");`)[0]).toMatch(/cannot run inside drizzle's migration transaction/);
    expect(check(`-- concurrently\nCREATE INDEX CONCURRENTLY "a" ON "attempts" ("id");`)[0]).toMatch(/must be CREATE \[UNIQUE\] INDEX CONCURRENTLY IF NOT EXISTS/);
    expect(check(`-- concurrently\nDROP INDEX CONCURRENTLY IF EXISTS "attempts_old_idx";`)).toEqual([]);
    expect(splitConcurrent([`ALTER TABLE "a" ADD COLUMN "b" text;`, marked])).toEqual({
      transactional: [`ALTER TABLE "a" ADD COLUMN "b" text;`],
      concurrent: [expect.objectContaining({ kind: "create_index", schema: "public", index: "attempts_status_idx" })],
    });
    expect(parseConcurrent(`-- concurrently\nCREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS app."Weird""Name" ON app.t (x)`)).toMatchObject({ schema: "app", index: 'Weird"Name' });
  });

  it("refuses a rewrite: a column's type changed, a volatile default, a serial, identity or stored generated column", () => {
    expect(check(`ALTER TABLE "deliveries" ALTER COLUMN "attempts" SET DATA TYPE bigint;`)[0]).toMatch(/changes the type of deliveries.attempts/);
    expect(check(`ALTER TABLE "messages" ADD COLUMN "token" uuid DEFAULT gen_random_uuid() NOT NULL;`)[0]).toMatch(/gen_random_uuid\(\)/);
    expect(check(`ALTER TABLE "messages" ADD COLUMN "seq" bigserial;`)[0]).toMatch(/serial/);
    expect(check(`ALTER TABLE "alerts" ADD COLUMN "n" int GENERATED ALWAYS AS IDENTITY;`)[0]).toMatch(/identity/);
    expect(check(`ALTER TABLE "alerts" ADD COLUMN "n" int GENERATED ALWAYS AS (length(kind)) STORED;`)[0]).toMatch(/stored generated/);
    // Several actions in one statement are each checked.
    expect(check(`ALTER TABLE "attempts" ADD COLUMN "a" text, ALTER COLUMN "status_code" TYPE bigint;`)).toHaveLength(1);
  });

  it("accepts a new column with no default, a constant one or now(), and a type change on a small table", () => {
    expect(check(`ALTER TABLE "messages" ADD COLUMN "tag" text;`)).toEqual([]);
    expect(check(`ALTER TABLE "messages" ADD COLUMN "flag" boolean DEFAULT false NOT NULL;`)).toEqual([]);
    expect(check(`ALTER TABLE "messages" ADD COLUMN "seen_at" timestamp with time zone DEFAULT now() NOT NULL;`)).toEqual([]);
    expect(check(`ALTER TABLE "messages" ADD COLUMN "amount" numeric DEFAULT '0'::numeric(10, 2);`)).toEqual([]);
    expect(check(`ALTER TABLE "endpoints" ALTER COLUMN "rate_limit" SET DATA TYPE bigint;`)).toEqual([]);
  });

  it("refuses attaching a growing table FOR VALUES (a scan under an exclusive lock), and accepts it as the DEFAULT partition of a parent the same file creates", () => {
    expect(check(`ALTER TABLE "messages" ATTACH PARTITION "messages_2026" FOR VALUES FROM ('msg_0') TO ('msg_1');`)[0]).toMatch(/attaches messages_2026.*FOR VALUES/);
    const swap = `ALTER TABLE "attempts" RENAME TO "attempts_default";${BP}CREATE TABLE "attempts" (LIKE "attempts_default") PARTITION BY RANGE ("id");${BP}`;
    expect(check(`${swap}ALTER TABLE "attempts" ATTACH PARTITION "attempts_default" DEFAULT;`)).toEqual([]);
    expect(check(`ALTER TABLE "attempts" ATTACH PARTITION "attempts_default" DEFAULT;`)[0]).toMatch(/DEFAULT partition of attempts, which has other partitions/);
    // A new, empty table attaches with nothing to scan.
    expect(check(`CREATE TABLE "attempts_p1" (LIKE "attempts");${BP}ALTER TABLE "attempts" ATTACH PARTITION "attempts_p1" FOR VALUES FROM ('a') TO ('b');`)).toEqual([]);
  });

  it("refuses a foreign key on a growing table that is validated at once, and accepts it NOT VALID", () => {
    const fk = `ALTER TABLE "deliveries" ADD CONSTRAINT "d_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade`;
    expect(check(`${fk};`)[0]).toMatch(/foreign key to deliveries that is validated at once/);
    expect(check(`${fk} NOT VALID;`)).toEqual([]);
  });

  it("refuses SET NOT NULL unless a validated CHECK (col IS NOT NULL) came before, in this or an earlier migration", () => {
    const setNotNull = `ALTER TABLE "deliveries" ALTER COLUMN "consumer_id" SET NOT NULL;`;
    expect(check(setNotNull)[0]).toMatch(/without a prior validated CHECK/);
    const addCheck = `ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_consumer_nn" CHECK ("consumer_id" IS NOT NULL) NOT VALID;`;
    expect(check(`${addCheck}${BP}${setNotNull}`)[0]).toMatch(/without a prior validated CHECK/);
    const validate = `ALTER TABLE "deliveries" VALIDATE CONSTRAINT "deliveries_consumer_nn";`;
    expect(check(`${addCheck}${BP}${validate}${BP}${setNotNull}`)).toEqual([]);
    expect(check(setNotNull, "0014_b.sql", [{ file: "0013_a.sql", sql: `${addCheck}${BP}${validate}` }])).toEqual([]);
    // A CHECK on another column proves nothing.
    expect(check(`${addCheck.replace(/consumer_id/g, "message_id")}${BP}${validate}${BP}${setNotNull}`)).toHaveLength(1);
  });

  it("lets a reviewed statement through with its reason", () => {
    expect(check(`-- migration-safety: the table is empty in every release so far\nCREATE INDEX "x" ON "recovery_items" ("seq");`)).toEqual([]);
  });

  it("splits statements on semicolons outside quotes, dollar quotes and comments", () => {
    const sql = `create function f() returns int as $$ select 1; $$ language sql; -- a; comment\nselect ';'; select "a;b" from t`;
    expect(splitStatements(sql).map((s) => s.trim())).toEqual([
      "create function f() returns int as $$ select 1; $$ language sql;",
      "-- a; comment\nselect ';';",
      'select "a;b" from t',
    ]);
  });
});
