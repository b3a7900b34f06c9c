export * from "./schemas";
export { createMessage } from "./create-message";
export { createMessageBatch } from "./create-message-batch";
export { listMessages, getMessage, findMessageRow, messageColumns } from "./queries";
export { resendMessage } from "./resend-message";
export { sendTestMessage, TEST_EVENT_TYPE } from "./send-test-message";
