import { json } from "@/lib/http/request";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { otherMethods } from "@/lib/http/methods";

// Documentation is public: no API key, unlike every other route under /api/v1.
let document: object | undefined;

export function GET() {
  document ??= buildOpenApiDocument();
  return json(document, 200, { "cache-control": "public, max-age=300" });
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
