import type { Operation } from "../openapi/document";
import { PageQuery } from "../pagination";
import type { createOperator } from "./create-operator";
import type { listOperators } from "./queries";
import { CreateOperatorInput, Operator } from "./schemas";

// The documented answers must be the ones the code produces: these fail to compile on drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type _DocumentedAnswersMatch = [
  Assert<Same<Operator, Awaited<ReturnType<typeof listOperators>>["data"][number]>>,
  Assert<Same<Operator, Awaited<ReturnType<typeof createOperator>>>>,
];

const ADMIN_ONLY = "`forbidden`: only an admin (or an API key) manages operators.";

// This domain's part of the OpenAPI document, merged by lib/openapi/document.ts.
export const operatorTag = { name: "Operators", description: "Dashboard logins: `admin` changes things, `viewer` only reads. Admins and API keys only." } as const;

export const operatorSchemas = {
  Operator: { schema: Operator, io: "output" },
  CreateOperatorInput: { schema: CreateOperatorInput, io: "input" },
} as const;

export const operatorOperations: Operation[] = [
  {
    method: "post",
    path: "/operators",
    operationId: "createOperator",
    summary: "Create an operator",
    tag: "Operators",
    body: { schema: "CreateOperatorInput" },
    success: { status: 201, description: "The new operator (never its password).", schema: "Operator" },
    errors: { 403: ADMIN_ONLY, 409: "`email_taken`: an operator with this email exists." },
  },
  {
    method: "get",
    path: "/operators",
    operationId: "listOperators",
    summary: "List operators",
    tag: "Operators",
    query: PageQuery,
    success: { status: 200, description: "A page of operators, newest first.", schema: "Operator", list: true },
    errors: { 403: ADMIN_ONLY },
  },
  {
    method: "delete",
    path: "/operators/{id}",
    operationId: "deleteOperator",
    summary: "Remove an operator",
    description: "Their sessions end at once. Nobody removes themselves, and the last admin stays.",
    tag: "Operators",
    params: { id: "The operator's id (`op_…`)." },
    success: { status: 204, description: "Removed." },
    errors: { 403: ADMIN_ONLY, 409: "`cannot_remove_self` or `last_admin`." },
  },
];
