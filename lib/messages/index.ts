export * from "./schemas";
export { createMessage } from "./create-message";
export { createMessageBatch } from "./create-message-batch";
export { listMessages, getMessage, findMessageRow, messageColumns } from "./queries";
export { resendMessage } from "./resend-message";
