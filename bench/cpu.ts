import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";

/**
 * CPU time per process group, from /proc (Linux only; elsewhere every figure is null): the web
 * app's, the worker's and PostgreSQL's process trees, the bench process itself (HTTP client and
 * receiver), and whatever else kept the machine busy. Two snapshots give each group's share.
 */

const TICKS_PER_SECOND = 100; // USER_HZ; 100 on every mainstream Linux.

type Proc = { pid: number; ppid: number; comm: string; ticks: number };

function readProcs(): Proc[] {
  const procs: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // comm is parenthesised and may contain spaces; the fields after it are space separated.
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const fields = stat.slice(close + 2).split(" ");
      // After comm: state(0) ppid(1) … utime(11) stime(12).
      procs.push({ pid: Number(name), ppid: Number(fields[1]), comm, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the process ended while we looked
    }
  }
  return procs;
}

function treeTicks(procs: Proc[], root: number | undefined): number {
  if (root === undefined) return 0;
  const children = new Map<number, Proc[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  let total = 0;
  const stack = procs.filter((p) => p.pid === root);
  while (stack.length) {
    const p = stack.pop()!;
    total += p.ticks;
    stack.push(...(children.get(p.pid) ?? []));
  }
  return total;
}

export type CpuGroups = Record<string, number | undefined>;

/** Busy ticks of the whole machine (all cores), from /proc/stat. */
function machineTicks(): number {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
  const values = fields.map(Number);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  // user nice system idle iowait irq softirq steal (guest time is already inside user).
  return values.slice(0, 8).reduce((a, b) => a + b, 0) - idle;
}

export type CpuSnapshot = { at: number; seconds: Record<string, number> } | null;

export function cpuSnapshot(pids: CpuGroups): CpuSnapshot {
  if (process.platform !== "linux") return null;
  const procs = readProcs();
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    seconds: {
      ...Object.fromEntries(
        Object.entries(pids).flatMap(([group, pid]) => (pid === undefined ? [] : [[group, treeTicks(procs, pid) / TICKS_PER_SECOND]])),
      ),
      bench: (usage.user + usage.system) / 1e6,
      machine: machineTicks() / TICKS_PER_SECOND,
    },
  };
}

/**
 * Each group's CPU use between two snapshots, in percent of one core ("150%" = one and a half
 * cores), plus "other" (the rest of the machine) and "idle" (out of 100% × cores). Processes that
 * exited in between are missed, so the group figures are lower bounds.
 */
export function cpuShares(before: CpuSnapshot, after: CpuSnapshot): Record<string, number> | null {
  if (!before || !after) return null;
  const elapsed = (after.at - before.at) / 1000;
  const share = (group: string) => (100 * Math.max(0, (after.seconds[group] ?? 0) - (before.seconds[group] ?? 0))) / elapsed;
  // Groups whose process was not known (e.g. Postgres on another host) are left out.
  const groups = ["web", "worker", "postgres", "bench"].filter((group) => group in after.seconds);
  const shares = Object.fromEntries(groups.map((group) => [group, share(group)]));
  const ours = groups.reduce((sum, group) => sum + shares[group]!, 0);
  return { ...shares, other: Math.max(0, share("machine") - ours), idle: Math.max(0, 100 * os.cpus().length - share("machine")) };
}

export function formatShares(shares: Record<string, number> | null): string {
  if (!shares) return "n/a (not Linux)";
  return Object.entries(shares)
    .map(([group, pct]) => `${group} ${Math.round(pct)}%`)
    .join(", ");
}

/** CPU seconds (user + system) one process has used, from /proc: less bent by the machine's other load than wall time. */
export function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}
