import { handle } from "./api";
import { serveHandler } from "./route-server";

/**
 * The app's route handlers (app/) served over real HTTP on 127.0.0.1, in this process and
 * routed as Next.js routes them (tests/helpers/api.ts), for clients that must talk HTTP themselves
 * (the svix SDKs): no build, the test file's own database and config.
 */
export async function startHttpApp() {
  const { url, close } = await serveHandler(handle);
  return { url, close };
}
