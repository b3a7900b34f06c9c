import { eq } from "drizzle-orm";
import { Svix, type ApplicationOut, type EndpointOut, type EventTypeOut } from "svix";
import { createConsumer } from "../consumers/create-consumer";
import type { Ctx } from "../context";
import { consumers, endpoints, eventTypes } from "../db/schema";
import { createEndpoint } from "../endpoints/create-endpoint";
import { CreateEndpointInput } from "../endpoints/schemas";
import { createEventType } from "../event-types/create-event-type";
import { CreateEventTypeInput } from "../event-types/schemas";
import { zodFieldErrors } from "../http/problem";

/** What a run did (or, dry, would do) to each kind of object. */
export type Tally = { found: number; created: number; existing: number; failed: number };
export type ImportSummary = {
  dryRun: boolean;
  eventTypes: Tally;
  applications: Tally;
  endpoints: Tally;
  /** One line per object that could not be imported, or was imported without something. */
  problems: string[];
};

type Source = { url: string; token: string };

const PAGE = 250;
const tally = (): Tally => ({ found: 0, created: 0, existing: 0, failed: 0 });

/**
 * Reads a Svix deployment through its API with the official SDK and makes what it holds here:
 * event types, then each application as a consumer and its endpoints with the same signing
 * secret, filter, channels, headers, rate, disabled state and uid — so receivers verify as before.
 * The Svix ids stay as aliases (`app_…`, `ep_…`) that our routes take. Idempotent: an object
 * already imported (found by its Svix id, or an application by its uid, an event type by its name)
 * is left as it is. `dryRun` reads everything and writes nothing. Message history is not moved.
 */
export async function importSvixDeployment({
  ctx,
  input,
  progress = () => {},
}: {
  ctx: Ctx;
  input: Source & { dryRun?: boolean };
  progress?: (line: string) => void;
}): Promise<ImportSummary> {
  const svix = new Svix(input.token, { serverUrl: input.url.replace(/\/+$/, "") });
  const summary: ImportSummary = { dryRun: Boolean(input.dryRun), eventTypes: tally(), applications: tally(), endpoints: tally(), problems: [] };

  for await (const type of pages((iterator) => svix.eventType.list({ limit: PAGE, iterator, withContent: true, includeArchived: true }))) {
    await importEventType(ctx, type, summary);
  }
  progress(`event types: ${describe(summary.eventTypes, summary.dryRun)}`);

  for await (const app of pages((iterator) => svix.application.list({ limit: PAGE, iterator }))) {
    const consumerId = await importApplication(ctx, app, summary);
    const before = { ...summary.endpoints };
    if (consumerId !== undefined) {
      for await (const endpoint of pages((iterator) => svix.endpoint.list(app.id, { limit: PAGE, iterator }))) {
        await importEndpoint(ctx, svix, { app, endpoint, consumerId }, summary);
      }
    }
    const made = summary.endpoints.created - before.created;
    progress(`application ${summary.applications.found}: ${app.uid ?? app.id} — ${summary.endpoints.found - before.found} endpoints, ${made} ${summary.dryRun ? "to create" : "created"}`);
  }
  return summary;
}

/** Every item of a Svix list, page by page, until the list says it is done. */
async function* pages<T>(list: (iterator: string | null) => Promise<{ data: T[]; iterator?: string | null; done: boolean }>): AsyncGenerator<T> {
  let iterator: string | null = null;
  for (;;) {
    const page = await list(iterator);
    yield* page.data;
    if (page.done || !page.iterator || page.data.length === 0) return;
    iterator = page.iterator;
  }
}

function describe(t: Tally, dryRun: boolean): string {
  return `${t.found} found, ${t.created} ${dryRun ? "to create" : "created"}, ${t.existing} already here${t.failed ? `, ${t.failed} failed` : ""}`;
}

/** `ImportSummary` as the CLI prints it at the end. */
export function summaryLines(summary: ImportSummary): string[] {
  return [
    `${summary.dryRun ? "Dry run, nothing written. " : ""}Imported from Svix:`,
    `  event types   ${describe(summary.eventTypes, summary.dryRun)}`,
    `  applications  ${describe(summary.applications, summary.dryRun)}`,
    `  endpoints     ${describe(summary.endpoints, summary.dryRun)}`,
    ...summary.problems.map((p) => `  ! ${p}`),
  ];
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
  const schemas = (type.schemas ?? null) as Record<string, unknown> | null;
  const parsed = CreateEventTypeInput.safeParse({ name: type.name, description: type.description, schema: (schemas?.["1"] as object | undefined) ?? null });
  if (!parsed.success) {
    summary.eventTypes.failed++;
    summary.problems.push(`event type ${type.name}: ${zodFieldErrors(parsed.error).map((e) => `${e.path} ${e.message}`).join("; ")}`);
    return;
  }
  if (!summary.dryRun) {
    await createEventType({ ctx, input: { ...parsed.data, archived: type.archived ?? false, deprecated: type.deprecated, group_name: type.groupName ?? null } });
  }
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
    summary.problems.push(`application ${app.uid ?? app.id}: ${failure(error)}`);
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
    summary.problems.push(`${name}: ${zodFieldErrors(parsed.error).map((e) => `${e.path} ${e.message}`).join("; ")}`);
    return;
  }
  if (sensitive?.length) {
    summary.problems.push(`${name}: Svix does not reveal the values of ${sensitive.join(", ")}; set them here with PATCH /api/v1/endpoints/{id}`);
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
    summary.problems.push(`${name}: ${failure(error)}`);
  }
}
