import type { z } from "zod";
import { input, output, type Assert, type Item, type Same } from "../openapi/operation";

import type { listConsumers } from "./queries";
import { Consumer, CreateConsumerInput, UpdateConsumerInput } from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/api-document/document.ts.
type _DocumentedAnswersMatch = [Assert<Same<z.infer<typeof Consumer>, Item<typeof listConsumers>>>];

export const consumerTag = { name: "Consumers", description: "Your customers: each owns endpoints and receives messages." } as const;

export const consumerSchemas = {
  Consumer: output(Consumer),
  CreateConsumerInput: input(CreateConsumerInput),
  UpdateConsumerInput: input(UpdateConsumerInput),
};
