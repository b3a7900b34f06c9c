export { checkFilter, filterProblems, InvalidFilterError, MAX_FILTER_BYTES, MAX_FILTER_CONDITIONS, MAX_FILTER_DEPTH, type Filter } from "./check-filter";
export { filterDocument, matchesFilter, type FilterDocument } from "./match-filter";
