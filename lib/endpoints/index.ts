export * from "./schemas";
export { findEndpointRow, getEndpoint, listEndpoints } from "./queries";
export { createEndpoint } from "./create-endpoint";
export { updateEndpoint } from "./update-endpoint";
export { deleteEndpoint } from "./delete-endpoint";
export { enableEndpoint, disableEndpoint } from "./enable-endpoint";
export { getEndpointSecret, rotateEndpointSecret } from "./rotate-endpoint-secret";
export { setEndpointState } from "./set-endpoint-state";
export { endpointStats, EndpointStatsQuery } from "./endpoint-stats";
