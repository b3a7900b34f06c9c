export * from "./schemas";
export { consumerRefs, findConsumer, listConsumers } from "./queries";
export { createConsumer } from "./create-consumer";
export { updateConsumer } from "./update-consumer";
