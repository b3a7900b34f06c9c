export * from "./schemas";
export { acceptCode } from "./accept-code";
export { confirmEnrollment } from "./confirm-enrollment";
export { getTwoFactorPolicy, twoFactorRequired, updateTwoFactorPolicy } from "./policy";
export { hasSecondFactor, twoFactorStatus } from "./queries";
export { resetTwoFactor } from "./reset-two-factor";
export { startEnrollment } from "./start-enrollment";
