import { eq } from "drizzle-orm";
import { Svix, type ApplicationOut, type EndpointOut, type EventTypeOut } from "svix";
import { sha256Hex } from "../crypto/encryption";
import { createConsumer } from "../consumers/create-consumer";
import type { Ctx } from "../context";
import { consumers, endpoints, eventTypes } from "../db/schema";
import { createEndpoint } from "../endpoints/create-endpoint";
import { CreateEndpointInput } from "../endpoints/schemas";
import { checkSchema } from "../event-schemas";
import { createSvixEventType, EventTypeIn } from "../svix/event-types";
import { zodFieldErrors } from "../errors";

/** What a run did (or, dry, would do) to each kind of object. */
export type Tally = { found: number; created: number; existing: number; failed: number };
export type ImportSummary = {
  dryRun: boolean;
  eventTypes: Tally;
  applications: Tally;
  endpoints: Tally;
  /** One line per object that could not be imported, or was imported without something: the first MAX_PROBLEMS. */
  problems: string[];
  /** Problems past MAX_PROBLEMS, counted only. */
  problemsNotListed: number;
  /** Why the run stopped before reading everything (a list that never ends), if it did. */
  stopped: string | null;
};

type Source = { url: string; token: string };

const PAGE = 250;
/** Pages of one list read at most unless the caller says otherwise: a million objects. */
export const MAX_PAGES = 4_000;
/** Problem lines kept for the summary; the rest are counted. */
export const MAX_PROBLEMS = 200;
/** Longest problem line kept (what Svix sent may be anything). */
const MAX_PROBLEM_CHARS = 500;
const tally = (): Tally => ({ found: 0, created: 0, existing: 0, failed: 0 });

/** A list the source will not finish: the run stops there, with what it did so far. */
class ListNeverEnds extends Error {}

/**
 * Reads a Svix deployment through its API with the official SDK and makes what it holds here:
 * event types, then each application as a consumer and its endpoints with the same signing
 * secret, filter, channels, headers, rate, disabled state and uid — so receivers verify as before.
 * The Svix ids stay as aliases (`app_…`, `ep_…`) that our routes take. Idempotent: an object
 * already imported (found by its Svix id, or an application by its uid, an event type by its name)
 * is left as it is. `dryRun` reads everything and writes nothing. Message history is not moved.
 *
 * The source is trusted for its data, not for its lists' ends: a list that hands back an iterator
 * it gave before, runs past `maxPages` pages, or answers more than it was asked for stops the run
 * (`stopped`), with what was done so far. Progress lines come escaped (`printable`).
 */
export async function importSvixDeployment({
  ctx,
  input,
  progress = () => {},
}: {
  ctx: Ctx;
  input: Source & { dryRun?: boolean; maxPages?: number };
  progress?: (line: string) => void;
}): Promise<ImportSummary> {
  const svix = new Svix(input.token, { serverUrl: input.url.replace(/\/+$/, "") });
  const summary: ImportSummary = {
    dryRun: Boolean(input.dryRun),
    eventTypes: tally(),
    applications: tally(),
    endpoints: tally(),
    problems: [],
    problemsNotListed: 0,
    stopped: null,
  };
  const maxPages = input.maxPages ?? MAX_PAGES;
  const say = (line: string) => progress(printable(line));

  try {
    const types = pages("event types", maxPages, (iterator) => svix.eventType.list({ limit: PAGE, iterator, withContent: true, includeArchived: true }));
    for await (const type of types) {
      await importEventType(ctx, type, summary);
    }
    say(`event types: ${describe(summary.eventTypes, summary.dryRun)}`);

    for await (const app of pages("applications", maxPages, (iterator) => svix.application.list({ limit: PAGE, iterator }))) {
      const consumerId = await importApplication(ctx, app, summary);
      const before = { ...summary.endpoints };
      if (consumerId !== undefined) {
        for await (const endpoint of pages(`the endpoints of ${app.uid ?? app.id}`, maxPages, (iterator) => svix.endpoint.list(app.id, { limit: PAGE, iterator }))) {
          await importEndpoint(ctx, svix, { app, endpoint, consumerId }, summary);
        }
      }
      const made = summary.endpoints.created - before.created;
      say(`application ${summary.applications.found}: ${app.uid ?? app.id} — ${summary.endpoints.found - before.found} endpoints, ${made} ${summary.dryRun ? "to create" : "created"}`);
    }
  } catch (error) {
    if (!(error instanceof ListNeverEnds)) throw error;
    summary.stopped = error.message;
  }
  return summary;
}

/**
 * Every item of a Svix list, page by page, until the list says it is done — or until it shows it
 * never will: an iterator handed out before (remembered by its hash, so a long one costs nothing
 * to keep), more than `maxPages` pages, a page longer than asked for.
 */
async function* pages<T>(
  what: string,
  maxPages: number,
  list: (iterator: string | null) => Promise<{ data: T[]; iterator?: string | null; done: boolean }>,
): AsyncGenerator<T> {
  const seen = new Set<string>();
  let iterator: string | null = null;
  for (let n = 1; ; n++) {
    if (n > maxPages) throw new ListNeverEnds(`${what}: still not done after ${maxPages} pages of ${PAGE}; stopped (--max-pages raises the limit)`);
    const page = await list(iterator);
    if (page.data.length > PAGE) throw new ListNeverEnds(`${what}: page ${n} held ${page.data.length} items, ${PAGE} were asked for; stopped`);
    yield* page.data;
    if (page.done || !page.iterator || page.data.length === 0) return;
    const key = sha256Hex(page.iterator);
    if (seen.has(key)) throw new ListNeverEnds(`${what}: page ${n} handed back an iterator already given, so the list would never end; stopped`);
    seen.add(key);
    iterator = page.iterator;
  }
}

/**
 * Text from the source as a terminal may show it: control characters (ANSI escapes, carriage
 * returns, newlines), C1 controls and bidirectional overrides written as \u escapes, so what a
 * Svix server sends can neither move the cursor, recolour, retitle the terminal nor disguise a line.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A problem for the summary: the first MAX_PROBLEMS kept, each cut to MAX_PROBLEM_CHARS; the rest counted. */
function problem(summary: ImportSummary, line: string): void {
  if (summary.problems.length >= MAX_PROBLEMS) {
    summary.problemsNotListed++;
    return;
  }
  summary.problems.push(line.length > MAX_PROBLEM_CHARS ? `${line.slice(0, MAX_PROBLEM_CHARS)}…` : line);
}

function describe(t: Tally, dryRun: boolean): string {
  return `${t.found} found, ${t.created} ${dryRun ? "to create" : "created"}, ${t.existing} already here${t.failed ? `, ${t.failed} failed` : ""}`;
}

/** `ImportSummary` as the CLI prints it at the end. */
export function summaryLines(summary: ImportSummary): string[] {
  return [
    `${summary.dryRun ? "Dry run, nothing written. " : ""}Imported from Svix${summary.stopped ? " (stopped before the end)" : ""}:`,
    `  event types   ${describe(summary.eventTypes, summary.dryRun)}`,
    `  applications  ${describe(summary.applications, summary.dryRun)}`,
    `  endpoints     ${describe(summary.endpoints, summary.dryRun)}`,
    ...summary.problems.map((p) => `  ! ${p}`),
    ...(summary.problemsNotListed > 0 ? [`  ! … and ${summary.problemsNotListed} more not listed`] : []),
    ...(summary.stopped ? [`Stopped: ${summary.stopped}`] : []),
  ].map(printable);
}

function failure(error: unknown): string {
  if (error instanceof Error && "errors" in error && Array.isArray(error.errors)) {
    return `${error.message} ${(error.errors as { path: string; message: string }[]).map((e) => `${e.path} ${e.message}`).join("; ")}`;
  }
  return error instanceof Error ? error.message : String(error);
}

async function importEventType(ctx: Ctx, type: EventTypeOut, summary: ImportSummary): Promise<void> {
  summary.eventTypes.found++;
  const [here] = await ctx.db.select({ id: eventTypes.id }).from(eventTypes).where(eq(eventTypes.name, type.name)).limit(1);
  if (here) {
    summary.eventTypes.existing++;
    return;
  }
  const parsed = EventTypeIn.safeParse({ name: type.name, description: type.description, schemas: type.schemas ?? null, archived: type.archived ?? false, deprecated: type.deprecated, groupName: type.groupName || null });
  // Every version's schema is checked as ours are when saved, so a dry run fails what the run would.
  const faults = parsed.success
    ? Object.entries(parsed.data.schemas ?? {}).flatMap(([version, schema]) =>
        /^[1-9][0-9]{0,8}$/.test(version) ? checkSchema(schema, `/schemas/${version}`).problems.map((p) => `${p.pointer} ${p.message}`) : [`/schemas/${version} is not a version number`],
      )
    : zodFieldErrors(parsed.error).map((e) => `${e.path} ${e.message}`);
  if (!parsed.success || faults.length > 0) {
    summary.eventTypes.failed++;
    problem(summary, `event type ${type.name}: ${faults.join("; ")}`);
    return;
  }
  // Its schema versions in order, lowest first: Svix's 1, 2, … are ours.
  if (!summary.dryRun) await createSvixEventType(ctx, parsed.data);
  summary.eventTypes.created++;
}

/** The consumer the application is (found or made); undefined when it could not be made. */
async function importApplication(ctx: Ctx, app: ApplicationOut, summary: ImportSummary): Promise<string | null | undefined> {
  summary.applications.found++;
  const [bySvixId] = await ctx.db.select({ id: consumers.id }).from(consumers).where(eq(consumers.svixId, app.id)).limit(1);
  const [byUid] = bySvixId || !app.uid ? [] : await ctx.db.select({ id: consumers.id, svixId: consumers.svixId }).from(consumers).where(eq(consumers.uid, app.uid)).limit(1);
  const here = bySvixId ?? byUid;
  if (here) {
    summary.applications.existing++;
    // A consumer made here before under the same uid: it now answers to the Svix id too.
    if (byUid && !byUid.svixId && !summary.dryRun) await ctx.db.update(consumers).set({ svixId: app.id }).where(eq(consumers.id, byUid.id));
    return here.id;
  }
  summary.applications.created++;
  if (summary.dryRun) return null;
  try {
    const consumer = await createConsumer({
      ctx,
      input: { uid: app.uid ?? undefined, name: app.name, metadata: app.metadata, svix_id: app.id, throttle_rate: app.throttleRate ?? app.rateLimit ?? null },
    });
    return consumer.id;
  } catch (error) {
    summary.applications.created--;
    summary.applications.failed++;
    problem(summary, `application ${app.uid ?? app.id}: ${failure(error)}`);
    return undefined;
  }
}

async function importEndpoint(
  ctx: Ctx,
  svix: Svix,
  { app, endpoint, consumerId }: { app: ApplicationOut; endpoint: EndpointOut; consumerId: string | null },
  summary: ImportSummary,
): Promise<void> {
  summary.endpoints.found++;
  const name = `endpoint ${endpoint.uid ?? endpoint.id} of ${app.uid ?? app.id}`;
  const [here] = await ctx.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.svixId, endpoint.id)).limit(1);
  if (here) {
    summary.endpoints.existing++;
    return;
  }
  const [{ key }, { headers, sensitive }] = await Promise.all([svix.endpoint.getSecret(app.id, endpoint.id), svix.endpoint.getHeaders(app.id, endpoint.id)]);
  const parsed = CreateEndpointInput.safeParse({
    url: endpoint.url,
    uid: endpoint.uid ?? null,
    description: endpoint.description,
    metadata: endpoint.metadata,
    event_types: endpoint.filterTypes?.length ? endpoint.filterTypes : null,
    channels: endpoint.channels?.length ? endpoint.channels : null,
    headers,
    rate_limit_per_second: endpoint.throttleRate ?? endpoint.rateLimit ?? null,
    disabled: endpoint.disabled ?? false,
    svix_headers: true,
    secret: key,
  });
  if (!parsed.success) {
    summary.endpoints.failed++;
    problem(summary, `${name}: ${zodFieldErrors(parsed.error).map((e) => `${e.path} ${e.message}`).join("; ")}`);
    return;
  }
  if (sensitive?.length) {
    problem(summary, `${name}: Svix does not reveal the values of ${sensitive.join(", ")}; set them here with PATCH /api/v1/endpoints/{id}`);
  }
  if (summary.dryRun || consumerId === null) {
    summary.endpoints.created++;
    return;
  }
  try {
    await createEndpoint({ ctx, consumerRef: consumerId, input: parsed.data, svixId: endpoint.id });
    summary.endpoints.created++;
  } catch (error) {
    summary.endpoints.failed++;
    problem(summary, `${name}: ${failure(error)}`);
  }
}
