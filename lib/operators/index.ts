export * from "./schemas";
export { createOperator } from "./create-operator";
export { deleteOperator } from "./delete-operator";
export { signInOperator, type SignInResult } from "./sign-in-operator";
export { findOperator, listOperators } from "./queries";
export { countLinkRequest, countPasswordAttempt, passwordDelayMs } from "./count-sign-in-attempt";
export { ConcurrencyGate, GateFullError } from "./concurrency-gate";
export { findOperatorByEmail, storeSignInToken, consumeSignInToken } from "./sign-in-tokens";
export { checkSecondFactor, signInSecondStep, type SecondStepResult } from "./second-factor-step";
