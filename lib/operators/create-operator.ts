import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { operators } from "../db/schema";
import { isUniqueViolation } from "../db/errors";
import { ConflictError, ValidationError } from "../errors";
import { newId } from "../ids";
import { hashPassword } from "./password";
import { CreateOperatorInput, toOperator } from "./schemas";

/** A dashboard login, made by an admin, an API key, or the system (the CLI and the demo seed). */
export async function createOperator({ ctx, input }: { ctx: Ctx; input: CreateOperatorInput }) {
  const parsed = CreateOperatorInput.safeParse(input);
  if (!parsed.success) {
    throw new ValidationError(
      "Invalid operator.",
      parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    );
  }
  const { email, password, role } = parsed.data;
  try {
    const passwordHash = await hashPassword(password);
    const row = await inTransaction(ctx, async (tx) => {
      const [created] = await tx.db.insert(operators).values({ id: newId("operator"), email, role, passwordHash }).returning();
      await recordAuditEvent(tx, { action: "operator.created", targetType: "operator", targetId: created!.id, data: { email, role } });
      return created!;
    });
    return toOperator(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError("email_taken", `An operator with email ${email} exists.`);
    throw error;
  }
}
