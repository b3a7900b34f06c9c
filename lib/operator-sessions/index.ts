export * from "./schemas";
export { startSession } from "./start-session";
export { sessionStanding, type SessionStanding } from "./session-standing";
export { listOwnSessions, listOperatorSessions } from "./queries";
export { endSignedOutSession, endOwnSession, endOtherSessions, endOperatorSessions } from "./end-sessions";
export { ownOperator } from "./own-operator";
