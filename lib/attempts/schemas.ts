import { z } from "zod";
import { ATTEMPT_TRIGGERS } from "../db/schema";

/** An attempt as ./queries.ts `toAttempt` shapes it. */
export const Attempt = z.object({
  id: z.string(),
  delivery_id: z.string(),
  message_id: z.string(),
  endpoint_id: z.string(),
  attempt_number: z.number(),
  trigger: z.enum(ATTEMPT_TRIGGERS),
  success: z.boolean(),
  status_code: z.number().nullable(),
  error: z.string().nullable(),
  error_detail: z.string().nullable(),
  response_body: z.string().nullable(),
  duration_ms: z.number(),
  /** The URL it was sent to; null for attempts logged before URLs were kept. */
  url: z.string().nullable(),
  request_headers: z.record(z.string(), z.string()),
  created_at: z.string(),
});
export type Attempt = z.infer<typeof Attempt>;
