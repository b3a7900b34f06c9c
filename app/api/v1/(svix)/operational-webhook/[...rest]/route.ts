import { svixCatchAll } from "@/lib/svix/unserved";

// Unmatched paths of the Svix surface: JSON (a 404, or 501 for a known Svix operation not served), never an HTML page.
export { svixCatchAll as GET, svixCatchAll as POST, svixCatchAll as PUT, svixCatchAll as PATCH, svixCatchAll as DELETE, svixCatchAll as OPTIONS };
