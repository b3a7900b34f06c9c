import { randomBytes, scrypt as scryptCb } from "node:crypto";
import { promisify } from "node:util";
import { z } from "zod";
import type { Executor } from "../db/client";
import { operators } from "../db/schema";
import { ConflictError, ValidationError } from "../errors";
import { newId } from "../ids";
import { isUniqueViolation } from "../db/errors";

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export const OperatorInput = z.object({
  email: z.string().trim().toLowerCase().email(),
  password: z.string().min(8, "must be at least 8 characters").max(200),
});

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString("base64")}$${hash.toString("base64")}`;
}

export async function createOperator(db: Executor, input: { email: string; password: string }) {
  const parsed = OperatorInput.safeParse(input);
  if (!parsed.success) {
    throw new ValidationError(
      "Invalid operator.",
      parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    );
  }
  try {
    const [row] = await db
      .insert(operators)
      .values({ id: newId("operator"), email: parsed.data.email, passwordHash: await hashPassword(parsed.data.password) })
      .returning({ id: operators.id, email: operators.email });
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError("email_taken", `An operator with email ${parsed.data.email} exists.`);
    throw error;
  }
}
