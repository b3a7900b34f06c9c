import type { RECEIVING_SAMPLES } from "./sample-text";

// What the portal's receiving pages are given by the server (props, not an API answer): the
// screens import these types from here (import type), never re-typed.

export type ReceivingSampleId = (typeof RECEIVING_SAMPLES)[number]["id"];

/** One receiver sample as shown: its text with `{{SECRET}}` where the endpoint's secret goes. */
export type ReceivingSample = { id: ReceivingSampleId; title: string; file: string; code: string };

/** The delivery rules the receiving guide quotes, in the units it quotes them in. */
export type ReceivingPolicy = { timeoutSeconds: number; rotationHours: number };
