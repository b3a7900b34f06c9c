export * from "./schemas";
export { createApiKey } from "./create-api-key";
export { revokeApiKey } from "./revoke-api-key";
export { authenticateApiKey } from "./authenticate-api-key";
export { listApiKeys } from "./queries";
