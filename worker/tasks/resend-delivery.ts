import type { Task } from "graphile-worker";
import { z } from "zod";
import { getConfig } from "../../lib/config";
import { getSql } from "../../lib/db/client";
import { resendDelivery as resend } from "../../lib/deliveries/resend-delivery";
import { workerState } from "../state";

const Payload = z.object({ delivery_id: z.string(), trigger: z.enum(["manual", "recovery"]) });

export const resendDelivery: Task = async (payload, helpers) => {
  const input = Payload.parse(payload);
  const found = await resend(getSql(), getConfig(), { deliveryId: input.delivery_id, trigger: input.trigger });
  if (!found) helpers.logger.info(`delivery ${input.delivery_id} no longer exists; nothing to resend`);
  workerState.counters.resends += 1;
};
