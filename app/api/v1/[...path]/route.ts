import { NotFoundError } from "@/lib/errors";
import { withApi } from "@/lib/http/api-route";

// Unknown API paths answer problem+json like every other error, not an HTML page, whatever the
// method; authenticated first, so the answer tells an unauthenticated caller nothing about paths.
const notFound = withApi(
  async ({ req }) => {
    throw new NotFoundError("route", `${req.method} ${new URL(req.url).pathname}`);
  },
  { portal: false, role: "read", doc: null },
);

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
