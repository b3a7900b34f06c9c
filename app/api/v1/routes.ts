import * as openapiJson from "./openapi.json/route";
import { ROUTE_LIST } from "./route-list";

/** Every route under /api/v1, by its OpenAPI path: the list of route-list.ts with the OpenAPI document's own. */
export const API_ROUTES = { ...ROUTE_LIST, "/openapi.json": openapiJson } satisfies Record<string, Record<string, unknown>>;
