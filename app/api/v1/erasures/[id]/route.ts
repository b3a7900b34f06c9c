import { json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { getErasure } from "@/lib/retention/queries";
import { Erasure } from "@/lib/retention/schemas";

export const GET = withApi(async ({ params, ctx }) => json(await getErasure(ctx, params.id!)), {
  portal: false,
  role: "read",
  doc: {
    operationId: "getErasure",
    summary: "Get a consumer's erasure",
    description: "How far the erasure DELETE /consumers/{consumer} began has gone: rows erased per table, and its messages erased of the whole.",
    tag: "Data lifecycle",
    params: { id: "The erasure's id (`era_…`)." },
    success: { status: 200, description: "The erasure.", schema: Erasure },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
