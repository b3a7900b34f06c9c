import { randomBytes } from "node:crypto";

/** Every prefixed id of the product comes from this list. */
export const ID_PREFIXES = {
  consumer: "con",
  eventType: "evtype",
  endpoint: "ep",
  endpointSecret: "whs",
  message: "msg",
  delivery: "dlv",
  attempt: "att",
  recovery: "rec",
  apiKey: "key",
  operator: "op",
  portalToken: "ptk",
  portalSession: "pss",
  alertChannel: "ach",
  alert: "alr",
  audit: "aud",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

// Crockford base32, lowercase: sorts the same as the numbers it encodes.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

function encode(value: bigint, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

/**
 * A ULID-shaped id behind a type prefix: 48 bits of milliseconds then 80 random bits, so ids sort by
 * creation time and index locality stays good for append-mostly tables.
 */
export function newId(kind: IdKind, now: number = Date.now()): string {
  const random = BigInt(`0x${randomBytes(10).toString("hex")}`);
  return `${ID_PREFIXES[kind]}_${encode(BigInt(now), 10)}${encode(random, 16)}`;
}

export function hasPrefix(kind: IdKind, value: string): boolean {
  return value.startsWith(`${ID_PREFIXES[kind]}_`);
}
