import { CreateEventTypeInput, createEventType, listEventTypes } from "@/lib/event-types";
import { json, parseBody, parseQuery } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";

export const POST = withApiKey(async ({ req, ctx }) =>
  json(await createEventType({ ctx, input: await parseBody(req, CreateEventTypeInput) }), 201),
);

export const GET = withApiKey(async ({ req, ctx }) => json(await listEventTypes(ctx, parseQuery(req, PageQuery))));

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
