import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Layering (docs/project-layout.md#layering): app/ and components/ never reach the database
// directly; code the worker imports (lib/, worker/) never depends on Next.js or React — lib/http
// and lib/auth excepted.
const UI_FORBIDDEN = {
  paths: [
    { name: "drizzle-orm", message: "UI code must not import drizzle-orm; call a verb in lib/." },
    { name: "postgres", message: "UI code must not import the postgres driver; call a verb in lib/." },
  ],
  patterns: [
    { group: ["**/lib/db", "**/lib/db/*"], message: "UI code must not import the DB layer; call a verb in lib/." },
    { group: ["drizzle-orm/*", "postgres/*"], message: "UI code must not import the DB driver." },
  ],
};

const CORE_FORBIDDEN = {
  paths: [
    { name: "next", message: "lib/ and worker/ stay framework-free (only lib/http and lib/auth may import next)." },
    { name: "react", message: "lib/ and worker/ must not import react." },
    { name: "react-dom", message: "lib/ and worker/ must not import react-dom." },
  ],
  patterns: [{ group: ["next/*", "react/*", "react-dom/*"], message: "lib/ and worker/ stay framework-free." }],
};

// Verbs get their database handle and config from `ctx` (lib/context.ts); only the process's edges
// make one (lib/open-ctx.ts) from the pool and the environment: a verb neither reaches for the pool
// or the environment nor opens a ctx of its own (openCtx, systemCtx, ctxOver).
const VERB_FORBIDDEN = {
  paths: CORE_FORBIDDEN.paths,
  patterns: [
    ...CORE_FORBIDDEN.patterns,
    { group: ["**/config"], importNames: ["getConfig"], message: "A verb reads ctx.config; only edges (lib/open-ctx.ts) call getConfig()." },
    { group: ["**/db/client"], importNames: ["getSql", "getDb"], message: "A verb uses ctx.db / ctx.sql; only edges (lib/open-ctx.ts) reach for the pool." },
    {
      group: ["**/open-ctx"],
      message: "A verb is given its ctx by its caller; only edges (route wrappers, worker tasks, the CLI, scripts) make one with openCtx/systemCtx/ctxOver.",
    },
  ],
};

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    name: "layering/ui-no-db",
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", UI_FORBIDDEN],
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportExpression[source.value=/(^|[/])lib[/]db([/]|$)|^drizzle-orm([/]|$)|^postgres([/]|$)/]",
          message: "UI code must not dynamically import the DB layer.",
        },
      ],
    },
  },
  {
    name: "layering/core-no-framework",
    files: ["lib/**/*.ts", "worker/**/*.ts"],
    ignores: ["lib/http/**", "lib/auth/**"],
    rules: {
      "no-restricted-imports": ["error", CORE_FORBIDDEN],
      "no-restricted-syntax": [
        "error",
        { selector: "ImportExpression[source.value=/^(next|react|react-dom)([/]|$)/]", message: "lib/ and worker/ must not import next/react." },
      ],
    },
  },
  {
    name: "layering/verbs-take-ctx",
    files: ["lib/**/*.ts"],
    // The edges: where a request, a sign-in or a probe arrives and a ctx is made.
    ignores: ["lib/http/**", "lib/auth/**", "lib/open-ctx.ts", "lib/db/**", "lib/config.ts", "lib/portal/cors.ts", "lib/**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", VERB_FORBIDDEN],
    },
  },
  {
    // Tests and helpers may use `any` for loosely typed JSON answers.
    files: ["tests/**/*.ts", "**/*.test.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  // bench/vendor/lean-probe/ is the lean batch probe, vendored verbatim (its header says why): not linted.
  globalIgnores([".next/**", ".data/**", "node_modules/**", "next-env.d.ts", "drizzle/**", "bench/vendor/lean-probe/**"]),
]);
