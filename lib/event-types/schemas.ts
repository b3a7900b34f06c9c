import { z } from "zod";
import type { eventTypes } from "../db/schema";

export const EventTypeName = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*$/, "must be dot-separated words of letters, digits, _ and -, like invoice.paid");

export const CreateEventTypeInput = z.strictObject({
  name: EventTypeName,
  description: z.string().max(2000).optional(),
  schema: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type CreateEventTypeInput = z.infer<typeof CreateEventTypeInput>;

export const EventType = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  schema: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type EventType = z.infer<typeof EventType>;

export function toEventType(row: typeof eventTypes.$inferSelect): EventType {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    schema: row.schema ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
