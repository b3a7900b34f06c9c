import { input, output, type Assert, type Same } from "../openapi/operation";

import type { confirmEnrollment } from "./confirm-enrollment";
import type { getTwoFactorPolicy } from "./policy";
import type { twoFactorStatus } from "./queries";
import type { startEnrollment } from "./start-enrollment";
import { ConfirmTwoFactorInput, RecoveryCodes, TwoFactorEnrollment, TwoFactorPolicy, TwoFactorStatus, UpdateTwoFactorPolicyInput } from "./schemas";

type _DocumentedAnswersMatch = [
  Assert<Same<TwoFactorStatus, Awaited<ReturnType<typeof twoFactorStatus>>>>,
  Assert<Same<TwoFactorEnrollment, Awaited<ReturnType<typeof startEnrollment>>>>,
  Assert<Same<RecoveryCodes, Awaited<ReturnType<typeof confirmEnrollment>>>>,
  Assert<Same<TwoFactorPolicy, Awaited<ReturnType<typeof getTwoFactorPolicy>>>>,
];

// This domain's part of the OpenAPI document, merged by lib/api-document/document.ts.
export const twoFactorTag = {
  name: "Two-factor",
  description: "Operators' second factor (TOTP, RFC 6238) for password and link sign-ins: enrolled and confirmed by the operator, reset by an admin, required of everyone by an admin's policy.",
} as const;

export const twoFactorSchemas = {
  TwoFactorStatus: output(TwoFactorStatus),
  TwoFactorEnrollment: output(TwoFactorEnrollment),
  ConfirmTwoFactorInput: input(ConfirmTwoFactorInput),
  RecoveryCodes: output(RecoveryCodes),
  TwoFactorPolicy: output(TwoFactorPolicy),
  UpdateTwoFactorPolicyInput: input(UpdateTwoFactorPolicyInput),
};
