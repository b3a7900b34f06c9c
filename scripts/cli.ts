import { parseArgs } from "node:util";
import { createApiKey, revokeApiKey } from "../lib/api-keys";
import { AppError } from "../lib/errors";
import { closeDb } from "../lib/db/client";
import { migrateDatabase } from "../lib/db/migrate";
import { createOperator } from "../lib/operators/create-operator";
import { resolveDatabase } from "../lib/runtime/database";
import { reencryptSecrets } from "../lib/crypto/reencrypt";
import { parseConfig } from "../lib/config";
import { readSecret } from "./read-secret";
import { sendBatchFile } from "./send-batch-file";
import { systemCtx } from "../lib/open-ctx";
import { importSvixDeployment, summaryLines } from "../lib/svix-import/import-deployment";

const USAGE = `Usage: npm run cli -- <command>

  api-key create --name NAME          create an API key; the key (sk_…) is the last line printed
  api-key revoke ID_OR_PREFIX         revoke a key by its id (key_…) or its first characters
  operator create --email E --password P [--role admin|viewer]
                                      create a dashboard login (admin by default)
  secrets reencrypt                   re-encrypt every stored secret under ENCRYPTION_KEY
  messages send-batch FILE.jsonl      send one message per line (as POST /messages/batch takes each,
                                      idempotency_key included), 100 at a time; a line that fails is
                                      reported by its number and the rest go on (exit status 1)
  svix import --from-url URL [--dry-run] [--max-pages N]
                                      copy a Svix deployment's event types, applications and
                                      endpoints (same secrets) here, through its API; run it again
                                      and it changes nothing (see docs/svix.md). The Svix token is
                                      read from SVIX_TOKEN, or asked for at a terminal (not shown);
                                      a list longer than N pages (default 4000) stops the run
  migrate                             bring the database schema up to date

Uses DATABASE_URL (and ENCRYPTION_KEY) when set, else the embedded database under WEBHOOK_ADMIN_DATA_DIR (.data/).`;

async function main(argv: string[]): Promise<string[]> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      role: { type: "string" },
      "from-url": { type: "string" },
      "from-token": { type: "string" },
      "dry-run": { type: "boolean" },
      "max-pages": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const command = positionals.slice(0, 2).join(" ");
  // Before anything else, and without repeating it: a token in argv is in `ps` and shell history.
  if (values["from-token"] !== undefined) {
    throw new UsageError(
      "--from-token is no longer taken: a token on the command line is visible to every user of the machine (ps) and kept in shell history. " +
        "Set SVIX_TOKEN instead (or leave it unset at a terminal to be asked for it), and revoke the token just given if this machine is shared.",
    );
  }
  const known = ["api-key create", "api-key revoke", "operator create", "secrets reencrypt", "messages send-batch", "svix import"];
  if (values.help || !(known.includes(command) || positionals[0] === "migrate")) {
    return [USAGE];
  }
  // svix import's input first, the token asked for before any work starts.
  const svix = command === "svix import" ? await svixInput(values) : null;
  const database = await resolveDatabase({ share: true });
  try {
    parseConfig(process.env);
    await migrateDatabase(database.url);
    const ctx = systemCtx();
    switch (command) {
      case "api-key create": {
        if (!values.name) throw new UsageError("api-key create needs --name NAME");
        const key = await createApiKey({ ctx, input: { name: values.name } });
        return [`Created API key ${key.id} (${key.name}). Store it now: it is not shown again.`, key.key];
      }
      case "api-key revoke": {
        const ref = positionals[2];
        if (!ref) throw new UsageError("api-key revoke needs the key's id or prefix");
        const key = await revokeApiKey({ ctx, input: { ref } });
        return [`Revoked API key ${key.id} (${key.name}).`];
      }
      case "operator create": {
        if (!values.email || !values.password) throw new UsageError("operator create needs --email and --password");
        const role = values.role ?? "admin";
        if (role !== "admin" && role !== "viewer") throw new UsageError("--role is admin or viewer");
        const input = { email: values.email, password: values.password, role: role as "admin" | "viewer" };
        const operator = await createOperator({ ctx, input });
        return [`Created operator ${operator.email} (${operator.id}, ${operator.role}).`];
      }
      case "messages send-batch": {
        const file = positionals[2];
        if (!file) throw new UsageError("messages send-batch needs a JSON Lines file");
        const summary = await sendBatchFile({ ctx, file, out: (line) => console.log(line), err: (line) => console.error(line) });
        if (summary.failed > 0) exitCode = 1;
        return [`Done: ${summary.lines} lines, ${summary.accepted} accepted (${summary.replayed} of them replayed), ${summary.failed} failed.`];
      }
      case "svix import": {
        const summary = await importSvixDeployment({ ctx, input: { ...svix!, dryRun: values["dry-run"] }, progress: (line) => console.log(line) });
        if (summary.stopped || summary.eventTypes.failed + summary.applications.failed + summary.endpoints.failed > 0) exitCode = 1;
        return summaryLines(summary);
      }
      case "secrets reencrypt": {
        const counts = await reencryptSecrets({ ctx });
        return [`Re-encrypted ${counts.endpointSecrets} endpoint secrets, ${counts.alertChannels} alert channels, ${counts.endpointTargets} broker destinations and ${counts.totpSecrets} operators' TOTP secrets.`];
      }
      default:
        return ["Database is up to date."];
    }
  } finally {
    await closeDb();
    await database.stop();
  }
}

class UsageError extends Error {}

/**
 * svix import's source: --from-url, --max-pages, and the token — SVIX_TOKEN, else typed at a
 * terminal without echo; never argv.
 */
async function svixInput(values: { "from-url"?: string; "max-pages"?: string }): Promise<{ url: string; token: string; maxPages?: number }> {
  const url = values["from-url"];
  if (!url) throw new UsageError("svix import needs --from-url");
  const maxPages = values["max-pages"] === undefined ? undefined : Number(values["max-pages"]);
  if (maxPages !== undefined && !(Number.isSafeInteger(maxPages) && maxPages > 0)) throw new UsageError("--max-pages is a whole number of pages, at least 1");
  const fromEnv = process.env.SVIX_TOKEN;
  if (fromEnv) return { url, token: fromEnv, maxPages };
  if (!process.stdin.isTTY) throw new UsageError("svix import needs the Svix API token in SVIX_TOKEN (or, at a terminal, typed when asked)");
  const typed = await readSecret("Svix API token (not shown): ").catch(() => "");
  if (!typed) throw new UsageError("svix import needs the Svix API token: none was typed");
  return { url, token: typed, maxPages };
}
// A command that ran to its end but did not do all it was asked (messages send-batch with failed lines).
let exitCode = 0;

main(process.argv.slice(2)).then(
  (lines) => {
    for (const line of lines) console.log(line);
    process.exit(exitCode);
  },
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
    else if (error instanceof AppError) console.error(`${error.message}${error.errors ? " " + error.errors.map((e) => `${e.path}: ${e.message}`).join("; ") : ""}`);
    else console.error(error instanceof Error ? error.message : error);
    // Explicit, with the status: the database pool would keep the process alive.
    process.exit(1);
  },
);
