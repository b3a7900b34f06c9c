import { schemaVersionOf, schemaVersionTypeScript } from "@/lib/event-types";
import { otherMethods } from "@/lib/http/methods";
import { withApi } from "@/lib/http/api-route";
import { SCHEMA_VERSION } from "@/lib/openapi/params";

export const GET = withApi(
  async ({ params, ctx }) => {
    const { source, fileName } = await schemaVersionTypeScript(ctx, params.name!, schemaVersionOf(params.version!));
    return new Response(source, {
      headers: { "content-type": "text/plain; charset=utf-8", "content-disposition": `attachment; filename="${fileName.replace(/[^a-zA-Z0-9._-]/g, "_")}"` },
    });
  },
  {
    portal: "scoped",
    role: "read",
    doc: {
      operationId: "getEventTypeSchemaTypeScript",
      summary: "One version of an event type's schema as TypeScript",
      description:
        "The payload's TypeScript declarations (text/plain, as a `.d.ts` download), generated from the schema by json-schema-to-typescript: an interface named for the event type (`invoice.paid` → `InvoicePaid`).",
      tag: "Event types",
      params: SCHEMA_VERSION,
      success: { status: 200, description: "TypeScript declarations, as text/plain." },
      errors: { 404: "`not_found`: no such event type or version, or the version removed the schema.", 422: "`types_unavailable`: the schema cannot be made into TypeScript." },
    },
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
