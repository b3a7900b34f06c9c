/**
 * A DATABASE_URL's parts, parsed without a driver: its hosts (one, or several separated by commas,
 * the form a failover setup gives every process — docs/operating.md#postgresql-failover), the URL
 * for each host alone, and target_session_attrs. lib/config.ts checks a setting with it, and
 * lib/db/hosts.ts connects by it.
 */

export type Host = { host: string; port: number };
export type Target = "any" | "read-write" | "primary";

const TARGETS: Record<string, Target> = { any: "any", "read-write": "read-write", primary: "primary" };

/** The hosts a URL names, and the URL for each of them alone (without target_session_attrs). */
export function splitHosts(url: string): { hosts: Host[]; urlFor: (host: Host) => string; target: Target } {
  const match = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/.exec(url);
  if (!match) throw new Error("not a postgres:// URL");
  const [, scheme, auth = "", hostList = "", rest = ""] = match;
  const hosts = hostList.split(",").map((entry) => {
    // [::1]:5432, ::1 is not accepted without brackets (as in libpq's URLs).
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) return { host: bracketed[1]!, port: Number(bracketed[2] ?? 5432) };
    const [host, port] = entry.split(":");
    return { host: host || "localhost", port: Number(port || 5432) };
  });
  const [pathPart = "", query = ""] = rest.split("?");
  const params = new URLSearchParams(query);
  const asked = params.get("target_session_attrs") ?? "any";
  const target = TARGETS[asked];
  if (!target) throw new Error(`target_session_attrs=${asked} is not supported for the worker's connections (any, read-write or primary)`);
  params.delete("target_session_attrs");
  const search = params.toString();
  const urlFor = (h: Host) => `${scheme}${auth}${h.host.includes(":") ? `[${h.host}]` : h.host}:${h.port}${pathPart}${search ? `?${search}` : ""}`;
  return { hosts, urlFor, target };
}

/** Why `url` is no database URL we can connect with, in words that do not repeat it (it may hold a password); null when it is one. */
export function databaseUrlProblem(url: string): string | null {
  const form = "a postgres:// URL, with one host or several separated by commas (host1:5432,host2:5432/db)";
  try {
    const { hosts, urlFor } = splitHosts(url);
    new URL(urlFor(hosts[0]!));
    return null;
  } catch (error) {
    return error instanceof Error && error.message.startsWith("target_session_attrs=") ? error.message : form;
  }
}
