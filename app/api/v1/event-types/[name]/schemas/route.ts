import { listSchemaVersions } from "@/lib/event-types";
import { EventTypeSchemaVersion } from "@/lib/event-types/schemas";
import { otherMethods } from "@/lib/http/methods";
import { json, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { EVENT_TYPE } from "@/lib/openapi/params";
import { PageQuery } from "@/lib/pagination";

export const GET = withApi(async ({ req, params, ctx }) => json(await listSchemaVersions(ctx, params.name!, parseQuery(req, PageQuery))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "listEventTypeSchemas",
    summary: "List an event type's schema versions",
    description: "Every schema the event type has had, newest version first; a version whose `schema` is null removed it.",
    tag: "Event types",
    params: EVENT_TYPE,
    query: PageQuery,
    success: { status: 200, description: "A page of schema versions, newest first.", schema: EventTypeSchemaVersion, list: true },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
