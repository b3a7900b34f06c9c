import { json } from "@/lib/http/request";
import { publicRoute } from "@/lib/http/api-route";
import { buildOpenApiDocument } from "@/lib/api-document/document";
import { otherMethods } from "@/lib/http/methods";
import { API_ROUTES } from "../routes";

// Documentation is public: no API key, unlike every other route under /api/v1.
let document: object | undefined;

export const GET = publicRoute(
  () => {
    document ??= buildOpenApiDocument(API_ROUTES);
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
