import { json, noContent } from "@/lib/http/request";
import { DeleteEventTypeQuery, EventTypePatch, EventTypeUpdate, getSvixEventType, patchSvixEventType, removeSvixEventType, upsertSvixEventType, EventTypeOut } from "@/lib/svix/event-types";
import { SVIX_EVENT_TYPE } from "@/lib/svix/openapi";
import { parseSvixBody, parseSvixQuery } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ params, ctx }) => json(await getSvixEventType(ctx, params.event_type_name!)), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixGetEventType",
    summary: "Get an event type (Svix: eventType.get)",
    params: SVIX_EVENT_TYPE,
    success: { status: 200, description: "The event type.", schema: EventTypeOut },
  },
});

export const PUT = svixRoute(
  async ({ req, params, ctx }) => {
    const { created, type } = await upsertSvixEventType(ctx, params.event_type_name!, await parseSvixBody(req, EventTypeUpdate));
    return json(type, created ? 201 : 200);
  },
  {
    portal: false,
    role: "write",
    doc: {
      operationId: "svixUpsertEventType",
      summary: "Replace or create an event type (Svix: eventType.update, 2.x upsert)",
      params: SVIX_EVENT_TYPE,
      body: { schema: EventTypeUpdate },
      success: { status: 200, description: "The event type, replaced whole.", schema: EventTypeOut },
      also: [{ status: 201, description: "None had this name: made.", schema: EventTypeOut }],
    },
  },
);

export const PATCH = svixRoute(async ({ req, params, ctx }) => json(await patchSvixEventType(ctx, params.event_type_name!, await parseSvixBody(req, EventTypePatch))), {
  portal: false,
  role: "write",
  doc: {
    operationId: "svixPatchEventType",
    summary: "Update an event type (Svix: eventType.patch)",
    description: "Changes the fields given; `null` unsets `schemas` and `groupName`.",
    params: SVIX_EVENT_TYPE,
    body: { schema: EventTypePatch },
    success: { status: 200, description: "The event type.", schema: EventTypeOut },
  },
});

export const DELETE = svixRoute(
  async ({ req, params, ctx }) => {
    await removeSvixEventType(ctx, params.event_type_name!, parseSvixQuery(req, DeleteEventTypeQuery).expunge ?? false);
    return noContent();
  },
  {
    portal: false,
    role: "write",
    doc: {
      operationId: "svixDeleteEventType",
      summary: "Archive or delete an event type (Svix: eventType.delete)",
      description: "Archives it (hidden from catalogs, its messages still delivered); with `expunge=true` deletes it.",
      params: SVIX_EVENT_TYPE,
      query: DeleteEventTypeQuery,
      success: { status: 204, description: "Archived, or deleted." },
    },
  },
);

export const { POST, OPTIONS } = svixMethods({ GET, PUT, PATCH, DELETE });
