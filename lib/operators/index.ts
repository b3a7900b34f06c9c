export * from "./schemas";
export { createOperator } from "./create-operator";
export { deleteOperator } from "./delete-operator";
export { signInOperator, type SignInResult } from "./sign-in-operator";
export { findOperator, listOperators } from "./queries";
export { countSignInAttempt } from "./count-sign-in-attempt";
export { findOperatorByEmail, storeSignInToken, consumeSignInToken } from "./sign-in-tokens";
