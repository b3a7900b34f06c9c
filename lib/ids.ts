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
  operatorSession: "ses",
  portalToken: "ptk",
  portalSession: "pss",
  alertChannel: "ach",
  alert: "alr",
  audit: "aud",
  erasure: "era",
  pollToken: "plt",
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

const HALF = 2 ** 40;
let lastTime = -1;
let lastHigh = 0;
let lastLow = 0;

function takeBytes(n: number): number {
  const bytes = randomPool();
  let value = 0;
  for (let i = 0; i < n; i++) value = value * 256 + bytes[poolOffset + i]!;
  poolOffset += n;
  return value;
}

function encode(value: number, chars: number): string {
  let out = "";
  for (let i = 0, v = value; i < chars; i++) {
    out = ALPHABET[v % 32]! + out;
    v = Math.floor(v / 32);
  }
  return out;
}

/**
 * A ULID-shaped id behind a type prefix: 48 bits of milliseconds then 80 random bits, so ids sort by
 * creation time and index locality stays good for append-mostly tables. (Plain number arithmetic:
 * ids are made for every attempt on the delivery hot path.)
 *
 * Lists are newest first by (created_at, id), and created_at has millisecond precision: rows made
 * in the same millisecond would come back in random order if their random parts were independent.
 * So an id made in the same millisecond as the one before it in this process steps that one's
 * random part up by a random amount instead: ids made one after another sort in the order they
 * were made. Ids are names, never secrets: nothing may rely on one being unguessable.
 */
export function newId(kind: IdKind, now: number = Date.now()): string {
  // 80 bits as two 40-bit halves (5 bytes, 8 characters each).
  let high = HALF;
  let low = 0;
  if (now === lastTime) {
    high = lastHigh;
    low = lastLow + 1 + takeBytes(3);
    if (low >= HALF) {
      low -= HALF;
      high += 1;
    }
  }
  // A new millisecond (or, about never, a step up that ran out of room): a fresh random part.
  if (high >= HALF) {
    high = takeBytes(5);
    low = takeBytes(5);
  }
  lastTime = now;
  lastHigh = high;
  lastLow = low;
  return `${ID_PREFIXES[kind]}_${encode(now, 10)}${encode(high, 8)}${encode(low, 8)}`;
}

/**
 * The smallest id of this prefix made at `ms` or later: the ids made in a span of time are a range
 * of text (time partitions are bounded by these, lib/retention/partitions.ts).
 */
export function idBoundAt(prefix: string, ms: number): string {
  return `${prefix}_${encode(ms, 10)}`;
}

/** The millisecond an id was made in (its first ten characters after the prefix). */
export function idTime(id: string): number {
  const time = id.slice(id.indexOf("_") + 1, id.indexOf("_") + 11);
  let ms = 0;
  for (const c of time) ms = ms * 32 + ALPHABET.indexOf(c);
  return ms;
}

/**
 * A new delivery's id: made in its message's millisecond rather than now, so every delivery of a
 * message (ingest's, a resend's or a recovery's, days later) falls in the message's day partition
 * (ADR 0034): that partition's unique index on (message_id, endpoint_id) then sees them all.
 */
export function deliveryIdFor(messageId: string): string {
  return newId("delivery", idTime(messageId));
}

/**
 * The first and last of some ids of one kind: text order is time order, so [first, last] is the
 * span of time they were made in. As a bound beside a list of ids (`id between first and last`) it
 * lets a statement planned with its values prune a table partitioned by id (ADR 0034) to the days
 * those ids are in; a join to the ids alone can prune only at run time, and its plan takes in every
 * day (about 35 at RETENTION_PERIOD=30d).
 */
export function idRange(ids: readonly string[]): [first: string, last: string] {
  let first = ids[0]!;
  let last = first;
  for (const id of ids) {
    if (id < first) first = id;
    if (id > last) last = id;
  }
  return [first, last];
}

/**
 * The smallest id a delivery of this message can have: one is made in its message's millisecond
 * (deliveryIdFor) or, made before migration 0019, later. As a lower bound on deliveries.id it prunes
 * the day partitions before the message's from a read by message_id (lib/db/deliveries-of-messages.ts).
 */
export function deliveryIdFloor(messageId: string): string {
  return idBoundAt(ID_PREFIXES.delivery, idTime(messageId));
}
