export { createPollToken, deletePollToken, authenticatePollToken, findPollingEndpoint, POLL_TOKEN_PREFIX } from "./poll-tokens";
export { pollEndpoint, signPolled, startOf, checkRetained } from "./poll-endpoint";
export { pollStatus, LAG_COUNTED } from "./poll-status";
export { markUnpolledEndpoints } from "./mark-unpolled";
export { readPage, type PolledEndpoint, type PolledMessage } from "./read-page";
export { recordPoll } from "./record-polled";
export { armWait, waitingPolls } from "./wait-for-messages";
export { decodeCursor, encodeCursor, positionAt, InvalidCursorError, CursorExpiredError, type Position } from "./cursor";
export * from "./schemas";
