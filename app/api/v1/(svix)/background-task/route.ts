import { json } from "@/lib/http/request";
import { ListBackgroundTasksQuery, listBackgroundTasks } from "@/lib/svix/background-tasks";
import { parseSvixQuery } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";
import { ListResponseBackgroundTaskOut } from "@/lib/svix/openapi";

export const GET = svixRoute(async ({ req, ctx }) => json(await listBackgroundTasks(ctx, parseSvixQuery(req, ListBackgroundTasksQuery))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixListBackgroundTasks",
    summary: "List background tasks (Svix: backgroundTask.list)",
    description: "Recovery runs as Svix tasks, newest first unless `order=ascending`.",
    query: ListBackgroundTasksQuery,
    success: { status: 200, description: "A page of tasks.", schema: ListResponseBackgroundTaskOut },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET });
