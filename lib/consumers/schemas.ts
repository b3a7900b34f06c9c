import { z } from "zod";
import type { Ctx } from "../context";
import type { consumers } from "../db/schema";
import { Text, jsonObject } from "../schemas";

const Metadata = jsonObject(z.string().max(100))
  .refine((value) => JSON.stringify(value).length <= 16_384, "must be at most 16 KiB as JSON");

export const CreateConsumerInput = z.strictObject({
  uid: z
    .string()
    .min(1)
    .max(256)
    .regex(/^[A-Za-z0-9_.:@-]+$/, "may contain only letters, digits and _ . : @ -"),
  name: Text.trim().min(1).max(256),
  metadata: Metadata.optional(),
  alert_emails: z.array(z.email()).max(20).optional(),
  weight: z.int().min(1).max(100).optional(),
});
export type CreateConsumerInput = z.infer<typeof CreateConsumerInput>;

/**
 * What createConsumer takes: our API's input, or the Svix API's (lib/svix), whose application may
 * have no uid (the consumer is then known by its id), an imported Svix id and a `throttleRate`.
 */
export type NewConsumer = Omit<CreateConsumerInput, "uid"> & { uid?: string; svix_id?: string | null; throttle_rate?: number | null };

export const UpdateConsumerInput = z.strictObject({
  name: Text.trim().min(1).max(256).optional(),
  metadata: Metadata.optional(),
  alert_emails: z.array(z.email()).max(20).optional(),
  weight: z.int().min(1).max(100).optional(),
});
export type UpdateConsumerInput = z.infer<typeof UpdateConsumerInput>;
/** What updateConsumer takes: our API's input, or the Svix API's, which may change the uid (null: none, known by its id) and `throttleRate`. */
export type ConsumerChanges = UpdateConsumerInput & { uid?: string | null; throttle_rate?: number | null };

export const ListConsumersQuery = z.object({ q: Text.max(200).optional() });

export const Consumer = z.object({
  id: z.string(),
  uid: z.string(),
  name: z.string(),
  /** The SaaS's own data about its customer: absent for a portal session. */
  metadata: z.record(z.string(), z.unknown()).optional(),
  alert_emails: z.array(z.string()),
  /** Its share of the engine when several consumers have due work (1–100): absent for a portal session. */
  weight: z.number().int().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Consumer = z.infer<typeof Consumer>;

/** A consumer as another answer names it: what a person knows it by, beside its id. */
export const ConsumerRef = z.object({ id: z.string(), uid: z.string(), name: z.string() });
export type ConsumerRef = z.infer<typeof ConsumerRef>;

export function toConsumer(row: typeof consumers.$inferSelect): Consumer {
  return {
    id: row.id,
    uid: row.uid,
    name: row.name,
    metadata: row.metadata,
    alert_emails: row.alertEmails,
    weight: row.weight,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A consumer as `ctx` may read it: a customer in the portal never sees the SaaS's `metadata`. */
export function consumerView(ctx: Ctx, row: typeof consumers.$inferSelect): Consumer {
  const consumer = toConsumer(row);
  if (ctx.actor.type === "portal") {
    delete consumer.metadata;
    delete consumer.weight;
  }
  return consumer;
}
