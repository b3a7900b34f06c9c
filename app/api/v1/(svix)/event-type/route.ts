import { json } from "@/lib/http/request";
import { EventTypeIn, ListEventTypesQuery, createSvixEventType, listSvixEventTypes, EventTypeOut } from "@/lib/svix/event-types";
import { parseSvixQuery } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";
import { ListResponseEventTypeOut } from "@/lib/svix/openapi";

export const GET = svixRoute(async ({ req, ctx }) => json(await listSvixEventTypes(ctx, parseSvixQuery(req, ListEventTypesQuery))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixListEventTypes",
    summary: "List event types (Svix: eventType.list)",
    description: "By name; archived ones only with `include_archived=true`, schemas only with `with_content=true`.",
    query: ListEventTypesQuery,
    success: { status: 200, description: "A page of event types.", schema: ListResponseEventTypeOut },
  },
});

export const POST = svixRoute(async ({ ctx, body }) => json(await createSvixEventType(ctx, body), 201), {
  body: EventTypeIn,
  portal: false,
  role: "write",
  doc: {
    operationId: "svixCreateEventType",
    summary: "Create an event type (Svix: eventType.create)",
    description: "An archived event type of that name is brought back instead.",
    body: { schema: EventTypeIn },
    success: { status: 201, description: "The event type.", schema: EventTypeOut },
    errors: { 409: "`event_type_exists`: an event type of this name exists (and is not archived)." },
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET, POST });
