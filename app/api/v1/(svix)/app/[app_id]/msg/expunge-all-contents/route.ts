import { json } from "@/lib/http/request";
import { expungeAllSvixContents, ExpungeAllContentsOut } from "@/lib/svix/expunge";
import { SVIX_APP } from "@/lib/svix/openapi";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const POST = svixRoute(async ({ params, ctx }) => json(await expungeAllSvixContents(ctx, params.app_id!), 202), {
  portal: false,
  role: "write",
  doc: {
    operationId: "svixExpungeAllContents",
    summary: "Delete every payload of an application (Svix: message.expungeAllContents)",
    description:
      "A background task (`application.purge_content`): every message made before it, expunged as DELETE /messages/{id}/payload does, 500 to a transaction. " +
      "The request spends up to 2 s on it, so a small application's is `finished` when this answers; the worker does the rest. " +
      "Poll it with GET /background-task/{id} (`data.messagesPurged` once finished).",
    params: SVIX_APP,
    success: { status: 202, description: "The task.", schema: ExpungeAllContentsOut },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });
