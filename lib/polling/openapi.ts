import type { z } from "zod";
import { output, type Assert, type Same } from "../openapi/operation";
import type { createPollToken } from "./poll-tokens";
import type { pollEndpoint } from "./poll-endpoint";
import type { pollStatus } from "./poll-status";
import { CreatedPollToken, PollPage, PollStatus } from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/api-document/document.ts.
type _DocumentedAnswersMatch = [
  Assert<Same<z.infer<typeof CreatedPollToken>, Awaited<ReturnType<typeof createPollToken>>>>,
  Assert<Same<z.infer<typeof PollPage>, Awaited<ReturnType<typeof pollEndpoint>>>>,
  Assert<Same<z.infer<typeof PollStatus>, Awaited<ReturnType<typeof pollStatus>>>>,
];

export const pollingTag = { name: "Polling", description: "Polling endpoints: their consumer reads their messages through a cursor instead of receiving them." } as const;

export const pollingSchemas = {
  PollPage: output(PollPage),
  CreatedPollToken: output(CreatedPollToken),
  PollStatus: output(PollStatus),
};
