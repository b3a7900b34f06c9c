import { input, output, type Assert, type Item, type Same } from "../openapi/operation";

import type { createOperator } from "./create-operator";
import type { listOperators } from "./queries";
import { CreateOperatorInput, Operator } from "./schemas";

// The documented answers must be the ones the code produces: these fail to compile on drift.
type _DocumentedAnswersMatch = [Assert<Same<Operator, Item<typeof listOperators>>>, Assert<Same<Operator, Awaited<ReturnType<typeof createOperator>>>>];

// This domain's part of the OpenAPI document, merged by lib/api-document/document.ts.
export const operatorTag = { name: "Operators", description: "Dashboard logins: `admin` changes things, `viewer` only reads. Admins and API keys only." } as const;

export const operatorSchemas = {
  Operator: output(Operator),
  CreateOperatorInput: input(CreateOperatorInput),
};
