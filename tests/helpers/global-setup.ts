import type { TestProject } from "vitest/node";
import postgres from "postgres";
import path from "node:path";
import { startEmbeddedPostgres } from "../../lib/db/embedded";
import { migrateDatabase } from "../../lib/db/migrate";

/**
 * Once per `npm test`: a PostgreSQL server (DATABASE_URL's, or an embedded one of the tests' own)
 * and a template database migrated once, which every test file clones into a database of its own.
 */
export default async function setup(project: TestProject) {
  let serverUrl = process.env.DATABASE_URL;
  let stop = async () => {};
  if (!serverUrl) {
    const embedded = await startEmbeddedPostgres({
      dir: path.resolve(".data/test"),
      // Throwaway data: durability settings off make the suite several times faster.
      settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
    });
    serverUrl = embedded.url;
    stop = embedded.stop;
  }
  const template = `wa_test_template_${process.pid}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${template}`);
  await admin.unsafe(`create database ${template}`);
  const templateUrl = withDatabase(serverUrl, template);
  await migrateDatabase(templateUrl);
  project.provide("serverUrl", serverUrl);
  project.provide("templateDatabase", template);
  return async () => {
    const leftovers = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${`wa_test_%_${process.pid}`} or datname = ${template}`;
    for (const { datname } of leftovers) await admin.unsafe(`drop database if exists ${datname} with (force)`);
    await admin.end();
    await stop();
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

declare module "vitest" {
  export interface ProvidedContext {
    serverUrl: string;
    templateDatabase: string;
  }
}
