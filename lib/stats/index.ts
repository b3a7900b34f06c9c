export { getStats } from "./queries";
export { StatsQuery } from "./schemas";
