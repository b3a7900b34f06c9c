import { noContent } from "@/lib/http/request";
import { EnvironmentIn, importEnvironment } from "@/lib/svix/environment";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const POST = svixRoute(
  async ({ ctx, body }) => {
    await importEnvironment(ctx, body);
    return noContent();
  },
  {
    body: EnvironmentIn,
    bodyLimit: () => 4 * 1024 * 1024,
    portal: false,
    role: "admin",
    doc: {
      operationId: "svixImportEnvironment",
      summary: "Import event types and alert channels (Svix: environment.import)",
      description:
        "Adds and updates, deletes nothing, all in one transaction: each event type upserted by name, each alert channel of `settings.alertChannels` " +
        "made, or replaced when one of that kind and name exists. Other `settings` keys (Svix's own) are ignored; a connector is refused 422. At most 1,000 of each, 4 MiB.",
      body: { schema: EnvironmentIn },
      success: { status: 204, description: "Imported." },
    },
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });
