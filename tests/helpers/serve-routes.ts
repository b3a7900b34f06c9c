/**
 * A web process of whatever checkout it is started in: that tree's route handlers (its app/) served
 * over HTTP on 127.0.0.1 (its own code, its own node_modules, the environment's DATABASE_URL), as
 * `next start` would route them, without a build. tests/operations/upgrade.test.ts runs it in the previous
 * release's tree (`node --import tsx <this file>`, cwd that tree) as the old web process.
 * Prints `{"listening":"http://127.0.0.1:PORT"}` once serving; on SIGTERM stops taking connections,
 * lets the requests in flight finish, and exits 0.
 */
import path from "node:path";
import { routeHandler, serveHandler } from "./route-server";

const server = await serveHandler(routeHandler(path.resolve("app")));
console.log(JSON.stringify({ listening: server.url }));
process.once("SIGTERM", () => {
  void server.drain().then(() => process.exit(0));
});
