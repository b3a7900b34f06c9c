import { json, noContent } from "@/lib/http/request";
import { ApplicationIn, ApplicationPatch, deleteApplication, getApplication, patchApplication, upsertApplication, ApplicationOut } from "@/lib/svix/applications";
import { SVIX_APP } from "@/lib/svix/openapi";
import { parseSvixBody } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ params, ctx }) => json(await getApplication(ctx, params.app_id!)), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixGetApplication",
    summary: "Get an application (Svix: application.get)",
    params: SVIX_APP,
    success: { status: 200, description: "The application.", schema: ApplicationOut },
  },
});

export const PUT = svixRoute(
  async ({ req, params, ctx }) => {
    const { created, app } = await upsertApplication(ctx, params.app_id!, await parseSvixBody(req, ApplicationIn));
    return json(app, created ? 201 : 200);
  },
  {
    portal: false,
    role: "write",
    doc: {
      operationId: "svixUpsertApplication",
      summary: "Replace or create an application (Svix: application.update, 2.x upsert)",
      params: SVIX_APP,
      body: { schema: ApplicationIn },
      success: { status: 200, description: "The application, replaced whole.", schema: ApplicationOut },
      also: [{ status: 201, description: "None had this uid: made with it.", schema: ApplicationOut }],
    },
  },
);

export const PATCH = svixRoute(async ({ req, params, ctx }) => json(await patchApplication(ctx, params.app_id!, await parseSvixBody(req, ApplicationPatch))), {
  portal: false,
  role: "write",
  doc: {
    operationId: "svixPatchApplication",
    summary: "Update an application (Svix: application.patch)",
    description: "Changes the fields given; `null` unsets one.",
    params: SVIX_APP,
    body: { schema: ApplicationPatch },
    success: { status: 200, description: "The application.", schema: ApplicationOut },
  },
});

export const DELETE = svixRoute(
  async ({ params, ctx }) => {
    await deleteApplication(ctx, params.app_id!);
    return noContent();
  },
  {
    portal: false,
    role: "write",
    doc: {
      operationId: "svixDeleteApplication",
      summary: "Delete an application (Svix: application.delete)",
      description: "Deletes the consumer with its endpoints, messages and deliveries.",
      params: SVIX_APP,
      success: { status: 204, description: "Deleted." },
    },
  },
);

export const { POST, OPTIONS } = svixMethods({ GET, PUT, PATCH, DELETE });
