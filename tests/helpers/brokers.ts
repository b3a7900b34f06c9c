import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Private brokers for the queue destinations' suites: a redis-server and a RabbitMQ node of the
 * test file's own, on ports of their own, with their data in a temporary folder, stopped after.
 * Debian's packages (`apt-get install redis-server rabbitmq-server`; .ci/run installs them): a
 * machine without them fails the suite saying so, it never skips it (docs/testing.md).
 */

const REDIS_SERVER = "/usr/bin/redis-server";
const RABBIT_BIN = "/usr/lib/rabbitmq/bin";

function requireBinary(file: string, pkg: string): void {
  if (!existsSync(file)) throw new Error(`${file} is missing: the queue destination suites need Debian's ${pkg} (apt-get install -y ${pkg}; see docs/testing.md)`);
}

/** A port nobody listens on now (the OS's choice), for a server that binds it itself. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

type Running = { child: ChildProcess; exited: Promise<number | null>; output: () => string };

/** Starts `command` and resolves once its output says `ready`; rejects with its output if it exits first. */
function startUntil(command: string, args: string[], env: NodeJS.ProcessEnv, ready: string, what: string): Promise<Running> {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise<Running>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) resolve({ child, exited, output: () => output });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("error", (error) => reject(new Error(`${what} could not start: ${error.message}`)));
    void exited.then((code) => reject(new Error(`${what} exited (${code}) before it was ready:\n${output.slice(-4000)}`)));
  });
}

export type RedisServer = {
  port: number;
  password: string;
  /** A redis:// URL with the right password, or with `password` instead. */
  url(password?: string): string;
  /** Stops it, saving what it holds first (it has no other persistence): a restart finds every entry it acknowledged. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it for good and removes its data. */
  close(): Promise<void>;
};

/** A private redis-server: no snapshots, no AOF, a password on the default user. */
export async function startRedis(): Promise<RedisServer> {
  requireBinary(REDIS_SERVER, "redis-server");
  const dir = mkdtempSync(path.join(tmpdir(), "wa-redis-"));
  const port = await freePort();
  const password = "redis-test-pw";
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--requirepass", password, "--daemonize", "no"];
  let running: Running | null = null;
  const start = async () => {
    running = await startUntil(REDIS_SERVER, args, process.env, "Ready to accept connections", "redis-server");
  };
  const stop = async () => {
    const current = running;
    if (!current) return;
    running = null;
    // SHUTDOWN SAVE writes the snapshot the restart loads; the CLI's exit is not the server's.
    spawnSync("/usr/bin/redis-cli", ["-p", String(port), "-a", password, "--no-auth-warning", "shutdown", "save"], { stdio: "ignore" });
    if (current.child.exitCode === null) current.child.kill("SIGTERM");
    await current.exited;
  };
  await start();
  return {
    port,
    password,
    url: (pw = password) => `redis://:${encodeURIComponent(pw)}@127.0.0.1:${port}`,
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type RabbitServer = {
  port: number;
  user: string;
  password: string;
  /** An amqp:// URL for the test user, or with `password` instead. */
  url(password?: string): string;
  /** rabbitmqctl against this node (throws with its output when it fails). */
  ctl(...args: string[]): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
};

/**
 * A private RabbitMQ node: its own node name, AMQP, distribution and epmd ports, Mnesia and logs in
 * a temporary folder (HOME too, for the Erlang cookie rabbitmqctl shares with it), no plugins, and
 * a user with a password made with rabbitmqctl. Ready when the node logs that its start-up is complete.
 */
export async function startRabbit(): Promise<RabbitServer> {
  requireBinary(path.join(RABBIT_BIN, "rabbitmq-server"), "rabbitmq-server");
  const dir = mkdtempSync(path.join(tmpdir(), "wa-rabbit-"));
  const [port, distPort, epmdPort] = [await freePort(), await freePort(), await freePort()];
  writeFileSync(path.join(dir, "enabled_plugins"), "[].\n");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: dir,
    RABBITMQ_NODENAME: `wa-test-${process.pid}-${port}@localhost`,
    RABBITMQ_NODE_IP_ADDRESS: "127.0.0.1",
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    ERL_EPMD_PORT: String(epmdPort),
    RABBITMQ_MNESIA_BASE: path.join(dir, "mnesia"),
    RABBITMQ_LOG_BASE: path.join(dir, "log"),
    RABBITMQ_LOGS: "-",
    RABBITMQ_CONFIG_FILE: path.join(dir, "rabbitmq"),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, "enabled_plugins"),
    RABBITMQ_PID_FILE: path.join(dir, "pid"),
  };
  const user = "webhooks";
  const password = "rabbit-test-pw";
  const ctl = (...args: string[]) => {
    const result = spawnSync(path.join(RABBIT_BIN, "rabbitmqctl"), args, { env, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`rabbitmqctl ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
    return result.stdout;
  };
  let running: Running | null = null;
  const start = async () => {
    running = await startUntil(path.join(RABBIT_BIN, "rabbitmq-server"), [], env, "Server startup complete", "rabbitmq-server");
  };
  const stop = async () => {
    const current = running;
    if (!current) return;
    running = null;
    ctl("stop");
    await current.exited;
  };
  await start();
  ctl("add_user", user, password);
  ctl("set_permissions", "-p", "/", user, ".*", ".*", ".*");
  return {
    port,
    user,
    password,
    url: (pw = password) => `amqp://${user}:${encodeURIComponent(pw)}@127.0.0.1:${port}`,
    ctl,
    stop,
    start,
    close: async () => {
      await stop();
      // The node started an epmd of its own on its own port; it outlives the node unless told.
      spawnSync("/usr/bin/epmd", ["-kill"], { env, stdio: "ignore" });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
