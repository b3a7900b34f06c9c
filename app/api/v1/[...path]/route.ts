import { NotFoundError } from "@/lib/errors";
import { withApiKey } from "@/lib/http/with-api-key";

// Unknown API paths answer problem+json like every other error, not an HTML page, whatever the method.
const notFound = withApiKey(async ({ req }) => {
  throw new NotFoundError("route", `${req.method} ${new URL(req.url).pathname}`);
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
