import { randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { ConcurrencyGate } from "./concurrency-gate";

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** `scrypt$<salt>$<hash>`, base64, 16-byte salt, 32-byte key, Node's default cost (N=16384, r=8, p=1). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString("base64")}$${hash.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await scrypt(password, Buffer.from(salt, "base64"), expected.length);
  return timingSafeEqual(actual, expected);
}

// Hashed against when the email is unknown, so an unknown email costs the same time as a known one.
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(12).toString("base64url"));
  return decoy;
}

/**
 * Sign-ins' password checks. scrypt runs on libuv's thread pool (4 threads unless
 * UV_THREADPOOL_SIZE says otherwise), so more at once would only wait there, in front of DNS and
 * file work; 32 in line absorb a burst of real sign-ins. Past that a sign-in is told to retry
 * instead of adding CPU work. The last 8 places are for operators' emails (signInOperator): a
 * flood of made-up emails — which nothing bounds per client without TRUST_PROXY — fills 24 and is
 * refused from there, while the owner's sign-in still finds a place.
 */
export const passwordChecks = new ConcurrencyGate(4, 32, 8);
