import { fileURLToPath } from "node:url";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { TIERS, testTiers, type Tier } from "./tests/tiers.ts";

const root = fileURLToPath(new URL(".", import.meta.url));
const tiers = testTiers(root);

// One project per tier (tests/tiers.ts says which file is in which, from what it imports):
// `npm run test:<tier>` runs one, `npm test` all of them in one run.
const project = (name: Tier): TestProjectInlineConfiguration => ({
  extends: true,
  test: {
    name,
    include: tiers[name],
    // The unit tier has no database: its files test pure logic.
    ...(name === "unit" ? {} : { globalSetup: ["tests/helpers/global-setup.ts"], setupFiles: ["tests/helpers/setup-file.ts"] }),
  },
});

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    projects: TIERS.map(project),
    pool: "forks",
    // Two cores: two test files at a time, each on its own database.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits on what the screen or the database comes to say; its 1 s default is a
    // clock bound that a loaded 2-core machine misses (a page's first fetch alone can take longer).
    expect: { poll: { timeout: 15_000 } },
    reporters: ["default"],
    // next-auth imports "next/server" without an extension, which only a bundler resolves.
    server: { deps: { inline: ["next-auth"] } },
  },
});
