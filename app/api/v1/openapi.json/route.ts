import { json } from "@/lib/http/request";
import { publicRoute } from "@/lib/http/api-route";
import { buildOpenApiDocument } from "@/lib/api-document/document";
import { otherMethods } from "@/lib/http/methods";
import { ROUTE_LIST } from "../route-list";

// Documentation is public: no API key, unlike every other route under /api/v1. Built from the
// route list and this route itself (the list does not import it back: no cycle of imports).
let document: object | undefined;

export const GET = publicRoute(
  () => {
    document ??= buildOpenApiDocument({ ...ROUTE_LIST, "/openapi.json": { GET } });
    return json(document, 200, { "cache-control": "public, max-age=300" });
  },
  {
    operationId: "getOpenApiDocument",
    summary: "This OpenAPI document",
    tag: "Meta",
    success: { status: 200, description: "The OpenAPI 3.1 document of /api/v1." },
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
