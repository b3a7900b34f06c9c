export * from "./schemas";
export { createOperator } from "./create-operator";
export { deleteOperator } from "./delete-operator";
export { signInOperator, type SignInResult } from "./sign-in-operator";
export { findOperator, listOperators } from "./queries";
