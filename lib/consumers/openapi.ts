import type { z } from "zod";
import { input, output, type Assert, type Item, type Operation, type Same } from "../openapi/operation";
import { PageQuery } from "../pagination";
import type { listConsumers } from "./queries";
import { Consumer, CreateConsumerInput, ListConsumersQuery, UpdateConsumerInput } from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/openapi/document.ts.
type _DocumentedAnswersMatch = [Assert<Same<z.infer<typeof Consumer>, Item<typeof listConsumers>>>];

export const consumerTag = { name: "Consumers", description: "Your customers: each owns endpoints and receives messages." } as const;

export const consumerSchemas = {
  Consumer: output(Consumer),
  CreateConsumerInput: input(CreateConsumerInput),
  UpdateConsumerInput: input(UpdateConsumerInput),
};

const CONSUMER = { consumer: "The consumer's id (`con_…`) or its `uid`." };

export const consumerOperations: Operation[] = [
  {
    method: "post",
    path: "/consumers",
    operationId: "createConsumer",
    summary: "Create a consumer",
    tag: "Consumers",
    body: { schema: "CreateConsumerInput" },
    success: { status: 201, description: "The new consumer.", schema: "Consumer" },
    errors: { 409: "`uid_taken`: a consumer with this uid exists." },
  },
  {
    method: "get",
    path: "/consumers",
    operationId: "listConsumers",
    summary: "List consumers",
    tag: "Consumers",
    query: PageQuery.extend(ListConsumersQuery.shape),
    success: { status: 200, description: "A page of consumers, newest first.", schema: "Consumer", list: true },
  },
  {
    method: "get",
    path: "/consumers/{consumer}",
    operationId: "getConsumer",
    summary: "Get a consumer",
    tag: "Consumers",
    params: CONSUMER,
    success: { status: 200, description: "The consumer.", schema: "Consumer" },
  },
  {
    method: "patch",
    path: "/consumers/{consumer}",
    operationId: "updateConsumer",
    summary: "Update a consumer",
    tag: "Consumers",
    params: CONSUMER,
    body: { schema: "UpdateConsumerInput" },
    success: { status: 200, description: "The updated consumer.", schema: "Consumer" },
  },
  {
    method: "delete",
    path: "/consumers/{consumer}",
    operationId: "deleteConsumer",
    summary: "Delete a consumer",
    description: "Deletes the consumer with its endpoints, messages and deliveries.",
    tag: "Consumers",
    params: CONSUMER,
    success: { status: 204, description: "Deleted." },
  },
];
