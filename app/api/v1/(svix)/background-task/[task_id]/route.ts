import { json } from "@/lib/http/request";
import { getBackgroundTask, BackgroundTaskOut } from "@/lib/svix/background-tasks";
import { SVIX_TASK } from "@/lib/svix/openapi";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ params, ctx }) => json(await getBackgroundTask(ctx, params.task_id!)), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixGetBackgroundTask",
    summary: "Get a background task (Svix: backgroundTask.get)",
    description: "An endpoint's recover or replay-missing: our recovery run of that id (`rec_…`).",
    params: SVIX_TASK,
    success: { status: 200, description: "The task.", schema: BackgroundTaskOut },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET });
