export * from "./schemas";
export { createMessage } from "./create-message";
export { listMessages, getMessage, findMessageRow } from "./queries";
export { resendMessage } from "./resend-message";
