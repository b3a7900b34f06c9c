/**
 * podman on the machines CI runs on (Debian 12 VMs, root, no systemd): installed from Debian when
 * missing, and run with the flags those VMs need (docs/operating.md, "The image, built and run here").
 */
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";

const exec = promisify(execFile);

/**
 * Flags for every container run here. crun refuses these VMs' hybrid cgroups, so runc; podman would
 * ask for open-file and process limits above the VM's hard limits (20,000 and 96,367) and the
 * runtime would stop at setrlimit, so limits below them, far above what the app uses.
 */
export const RUN_FLAGS = ["--runtime", "runc", "--ulimit", "nofile=20000:20000", "--ulimit", "nproc=1000:1000", "--network", "host"];

/** `podman …`'s standard output; a failure throws with its standard error. */
export async function podman(args: string[], options: { input?: string } = {}): Promise<string> {
  if (options.input === undefined) {
    const { stdout } = await exec("podman", args, { maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim();
  }
  return new Promise((resolve, reject) => {
    const child = spawn("podman", args, { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`podman ${args.join(" ")}: exit ${code}\n${err}`))));
    child.stdin.end(options.input);
  });
}

/** Runs a command with its output on ours (the build's progress); rejects on a non-zero exit. */
export function runVisible(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")}: exit ${code}`))));
  });
}

/** Debian's podman, podman-compose, runc and debootstrap, installed once. */
export async function ensurePodman(say: (line: string) => void): Promise<void> {
  const missing = [
    ["podman", "/usr/bin/podman"],
    ["podman-compose", "/usr/bin/podman-compose"],
    ["runc", "/usr/sbin/runc"],
    ["debootstrap", "/usr/sbin/debootstrap"],
  ].filter(([, binary]) => !existsSync(binary as string));
  if (missing.length === 0) return;
  const names = missing.map(([name]) => name as string);
  say(`Installing ${names.join(", ")} from Debian…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  await exec("apt-get", ["update", "-qq"], { env });
  await exec("apt-get", ["install", "-y", "-qq", ...names], { env, maxBuffer: 64 * 1024 * 1024 });
}
