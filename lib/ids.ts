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

// Random bytes drawn from the CSPRNG 4 KiB at a time: one call per id cost more than the rest of
// making the id.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function randomPool(): Buffer {
  if (poolOffset + 10 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  return pool;
}

/**
 * A ULID-shaped id behind a type prefix: 48 bits of milliseconds then 80 random bits, so ids sort by
 * creation time and index locality stays good for append-mostly tables. (Plain number arithmetic:
 * ids are made for every attempt on the delivery hot path.)
 */
export function newId(kind: IdKind, now: number = Date.now()): string {
  let time = "";
  for (let i = 0, t = now; i < 10; i++) {
    time = ALPHABET[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomPool();
  const at = poolOffset;
  poolOffset += 10;
  let random = "";
  // 80 bits = 16 characters of 5 bits, taken 40 bits (5 bytes) at a time.
  for (let half = 0; half < 2; half++) {
    let chunk = 0;
    for (let i = 0; i < 5; i++) chunk = chunk * 256 + bytes[at + half * 5 + i]!;
    let part = "";
    for (let i = 0; i < 8; i++) {
      part = ALPHABET[chunk % 32]! + part;
      chunk = Math.floor(chunk / 32);
    }
    random += part;
  }
  return `${ID_PREFIXES[kind]}_${time}${random}`;
}
