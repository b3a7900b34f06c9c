// The container's HEALTHCHECK: one image runs the web app, the worker or a migration, so the
// check follows the command PID 1 was started with (docker-init's too, under `init: true`).
import { readFileSync } from "node:fs";

const command = (() => {
  try {
    return readFileSync("/proc/1/cmdline", "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
})();
const role = process.env.WEBHOOK_ADMIN_ROLE ?? (/\bworker\b/.test(command) ? "worker" : /\bmigrate\b/.test(command) ? "migrate" : "web");
if (role === "migrate") process.exit(0);
const url =
  role === "worker"
    ? `http://127.0.0.1:${process.env.WORKER_METRICS_PORT || 9464}/health`
    : `http://127.0.0.1:${process.env.PORT || 3000}/api/health`;
fetch(url, { signal: AbortSignal.timeout(4000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
