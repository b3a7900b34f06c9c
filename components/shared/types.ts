import type { Recovery } from "@/lib/recoveries/schemas";

// Shapes of /api/v1 answers the shared parts render, from the schemas the server answers with.
export type { Attempt } from "@/lib/attempts/schemas";
export type { Recovery, RecoveryCounts } from "@/lib/recoveries/schemas";

export const ACTIVE_RECOVERY_STATES: readonly Recovery["state"][] = ["planned", "canary", "running", "paused"];
