export { endpointStats, EndpointStatsQuery } from "./endpoint-stats";
export { getStats } from "./queries";
export { StatsQuery } from "./schemas";
