import type { z } from "zod";
import { output, type Assert, type Item, type Same } from "../openapi/operation";
import type { listAttempts } from "./queries";
import { Attempt } from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/api-document/document.ts.
type _DocumentedAnswersMatch = [Assert<Same<z.infer<typeof Attempt>, Item<typeof listAttempts>>>];

export const attemptTag = { name: "Attempts", description: "Every HTTP try of a delivery." } as const;

export const attemptSchemas = { Attempt: output(Attempt) };
