import { output, type Assert, type Same } from "../openapi/operation";

import type { endOtherSessions } from "./end-sessions";
import type { listOwnSessions } from "./queries";
import { EndedSessions, OperatorSessionList } from "./schemas";

type _DocumentedAnswersMatch = [
  Assert<Same<OperatorSessionList, Awaited<ReturnType<typeof listOwnSessions>>>>,
  Assert<Same<EndedSessions, Awaited<ReturnType<typeof endOtherSessions>>>>,
];

/** What the routes about the signed-in operator's own account say of who may call them. */
export const OWN_ONLY = "Only with the operator's own dashboard session (any role): not an API key, not a portal session.";

// This domain's part of the OpenAPI document, merged by lib/api-document/document.ts.
export const operatorSessionTag = {
  name: "Sessions",
  description: "Operators' dashboard sessions: one row per sign-in, listed and ended by their operator, or by an admin. Dashboard sessions only.",
} as const;

export const operatorSessionSchemas = {
  OperatorSessionList: output(OperatorSessionList),
  EndedSessions: output(EndedSessions),
};
