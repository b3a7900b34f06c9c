export * from "./schemas";
export { getRecovery, listRecoveries, listRecoveryItems, recoveryItemsCsv } from "./queries";
export { createRecovery } from "./create-recovery";
export { pauseRecovery } from "./pause-recovery";
export { resumeRecovery } from "./resume-recovery";
export { cancelRecovery } from "./cancel-recovery";
export { retryFailedItems } from "./retry-failed";
