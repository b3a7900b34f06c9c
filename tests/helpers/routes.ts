import { API_ROUTES } from "../../app/api/v1/routes";
import { HTTP_METHODS } from "../../lib/http/methods";
import { isOtherMethod } from "../../lib/http/methods";
import { routeContract, type RouteContract } from "../../lib/http/route-contract";

export type ApiRoute = {
  /** The OpenAPI path, relative to /api/v1: /consumers/{consumer}. */
  path: string;
  /** The route file's folders: /consumers/[consumer]. */
  folder: string;
  module: Record<string, unknown>;
  /** The methods the route implements (not the 405 and OPTIONS stand-ins), with their contracts. */
  methods: { method: string; handler: unknown; contract: RouteContract | undefined }[];
};

/** Every route of app/api/v1/routes.ts, the one list the route tests walk. */
export function apiRoutes(): ApiRoute[] {
  return Object.entries(API_ROUTES).map(([path, module]) => ({
    path,
    folder: path.replace(/\{(\w+)\*\}/g, "[...$1]").replace(/\{(\w+)\}/g, "[$1]"),
    module,
    methods: HTTP_METHODS.filter((method) => method !== "HEAD" && method !== "OPTIONS")
      .filter((method) => typeof module[method] === "function" && !isOtherMethod(module[method]))
      .map((method) => ({ method, handler: module[method], contract: routeContract(module[method]) })),
  }));
}

/** `METHOD /folder` for each implemented method, as the route tests key their tables. */
export function routeKeys(): string[] {
  return apiRoutes().flatMap((route) => route.methods.map(({ method }) => `${method} ${route.folder === "/" ? "" : route.folder}`));
}
