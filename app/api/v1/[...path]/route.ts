import { NotFoundError } from "@/lib/errors";
import { withApi, type RouteHandler } from "@/lib/http/api-route";
import { declareRoute, routeContract } from "@/lib/http/route-contract";
import { svixCatchAll } from "@/lib/svix/unserved";
import { unservedRequest } from "@/lib/svix/unserved-operations";

// Unknown API paths answer problem+json like every other error, not an HTML page, whatever the
// method; authenticated first, so the answer tells an unauthenticated caller nothing about paths.
const notFound = withApi(
  async ({ req }) => {
    throw new NotFoundError("route", `${req.method} ${new URL(req.url).pathname}`);
  },
  { portal: false, role: "read", doc: null },
);

// An operation of Svix's API outside the Svix folders (streams, connectors, /management…) is the
// Svix surface's: its 501 in Svix's shape, not our 404.
const unmatched = declareRoute<RouteHandler>(
  (req, context) => (unservedRequest(req) ? svixCatchAll : notFound)(req, context),
  routeContract(notFound)!,
);

export { unmatched as GET, unmatched as POST, unmatched as PUT, unmatched as PATCH, unmatched as DELETE, unmatched as OPTIONS };
