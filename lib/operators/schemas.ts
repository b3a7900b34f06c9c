import { z } from "zod";
import { OPERATOR_ROLES, type operators } from "../db/schema";

export const OperatorRole = z.enum(OPERATOR_ROLES);

export const CreateOperatorInput = z.strictObject({
  email: z.string().trim().toLowerCase().email().max(320),
  password: z.string().min(8, "must be at least 8 characters").max(200),
  role: OperatorRole.default("admin"),
});
export type CreateOperatorInput = z.input<typeof CreateOperatorInput>;

export const Operator = z.object({
  id: z.string(),
  email: z.string(),
  role: OperatorRole,
  created_at: z.string(),
});
export type Operator = z.infer<typeof Operator>;

export function toOperator(row: Pick<typeof operators.$inferSelect, "id" | "email" | "role" | "createdAt">): Operator {
  return { id: row.id, email: row.email, role: row.role, created_at: row.createdAt.toISOString() };
}
