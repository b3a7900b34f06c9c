import { json } from "@/lib/http/request";
import { ApplicationIn, ListApplicationsQuery, createApplication, listApplications, ApplicationOut } from "@/lib/svix/applications";
import { parseSvixQuery, QueryBool } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";
import { z } from "zod";
import { ListResponseApplicationOut } from "@/lib/svix/openapi";

const CreateQuery = z.object({ get_if_exists: QueryBool.optional() });

export const GET = svixRoute(async ({ req, ctx }) => json(await listApplications(ctx, parseSvixQuery(req, ListApplicationsQuery))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixListApplications",
    summary: "List applications (Svix: application.list)",
    description: "Consumers as Svix applications, oldest first unless `order=descending`. A portal token lists its own.",
    query: ListApplicationsQuery,
    success: { status: 200, description: "A page of applications.", schema: ListResponseApplicationOut },
  },
});

export const POST = svixRoute(
  async ({ req, ctx, body }) => {
    const { get_if_exists } = parseSvixQuery(req, CreateQuery);
    const { created, app } = await createApplication(ctx, body, get_if_exists ?? false);
    return json(app, created ? 201 : 200);
  },
  {
    body: ApplicationIn,
    portal: false,
    role: "write",
    doc: {
      operationId: "svixCreateApplication",
      summary: "Create an application (Svix: application.create, getOrCreate)",
      description: "Creates a consumer. With `get_if_exists=true`, an existing application of that uid is answered instead (200).",
      query: CreateQuery,
      body: { schema: ApplicationIn },
      success: { status: 201, description: "The new application.", schema: ApplicationOut },
      also: [{ status: 200, description: "With `get_if_exists=true`: the existing application of that uid.", schema: ApplicationOut }],
      errors: { 409: "`conflict`: an application with this uid exists." },
    },
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET, POST });
