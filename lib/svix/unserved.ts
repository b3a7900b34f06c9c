import { NotFoundError } from "../errors";
import { NotImplementedError } from "./errors";
import { svixRoute } from "./route";
import { svixPath, unservedRequest } from "./unserved-operations";

/**
 * The catch-all of a Svix folder (app/api/v1/(svix)/{app,event-type,auth,background-task,operational-webhook}/[...rest]),
 * of our own (for the Svix paths outside those folders) and of Svix Ingest's base path
 * (app/ingest/api/v1/[...path]): authenticated first, like our own catch-all, so it tells an
 * unauthenticated caller nothing; then a 501 for an operation of Svix's document not served, else
 * a JSON 404.
 */
export const svixCatchAll = svixRoute(
  async ({ req }) => {
    const unserved = unservedRequest(req);
    if (unserved) throw new NotImplementedError(unserved);
    throw new NotFoundError("route", `${req.method} ${svixPath(req).path}`);
  },
  { portal: false, role: "read", doc: null },
);
