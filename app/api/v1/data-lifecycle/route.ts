import { json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { getDataLifecycle } from "@/lib/retention/queries";
import { DataLifecycle } from "@/lib/retention/schemas";

export const GET = withApi(async ({ ctx }) => json(await getDataLifecycle(ctx)), {
  portal: false,
  role: "admin",
  doc: {
    operationId: "getDataLifecycle",
    summary: "Retention, database size and erasures",
    description:
      "The retention settings in force, the database's size and its ten largest tables (with indexes and TOAST), the oldest message kept, " +
      "the last sweeps' work, and consumer erasures running (with the last few finished). Admins and API keys only.",
    tag: "Data lifecycle",
    success: { status: 200, description: "What the Data & retention page shows.", schema: DataLifecycle },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
