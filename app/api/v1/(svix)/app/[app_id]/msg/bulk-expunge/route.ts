import { json } from "@/lib/http/request";
import { BulkExpungeContentsIn, BulkExpungeContentsOut, bulkExpungeSvixContents } from "@/lib/svix/expunge";
import { SVIX_APP } from "@/lib/svix/openapi";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const POST = svixRoute(async ({ params, ctx, body }) => json(await bulkExpungeSvixContents(ctx, params.app_id!, body)), {
  body: BulkExpungeContentsIn,
  portal: false,
  role: "write",
  doc: {
    operationId: "svixBulkExpungeContents",
    summary: "Delete many messages' payloads (Svix: message.bulkExpungeContent)",
    description:
      "Each of `ids` (a message's id or eventId; at most 1,000) expunged as DELETE /messages/{id}/payload does, all in one transaction: " +
      "`results` says `expunged` (also for one expunged before) or `not-found` for each.",
    params: SVIX_APP,
    body: { schema: BulkExpungeContentsIn },
    success: { status: 200, description: "What became of each id.", schema: BulkExpungeContentsOut },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });
