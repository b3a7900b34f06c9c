import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["lib/**/*.test.ts", "tests/**/*.test.ts"],
    globalSetup: ["tests/helpers/global-setup.ts"],
    setupFiles: ["tests/helpers/setup-file.ts"],
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
