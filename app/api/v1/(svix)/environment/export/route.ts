import { json } from "@/lib/http/request";
import { EnvironmentOut, exportEnvironment } from "@/lib/svix/environment";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const POST = svixRoute(async ({ ctx }) => json(await exportEnvironment(ctx)), {
  portal: false,
  role: "admin",
  doc: {
    operationId: "svixExportEnvironment",
    summary: "Export this deployment's event types and alert channels (Svix: environment.export)",
    description:
      "One JSON document: every event type (archived ones too) with its schema versions, and under `settings.alertChannels` every alert channel " +
      "as POST /alert-channels takes it, credentials included — so it needs the admin role and is audited (`alert_channels.exported`). `environment.import` reads it back.",
    success: { status: 200, description: "The document.", schema: EnvironmentOut },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });
