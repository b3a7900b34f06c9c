export { checkFilter, filterProblems, InvalidFilterError, MAX_FILTER_BYTES, MAX_FILTER_CONDITIONS, MAX_FILTER_DEPTH, type Filter } from "./check-filter";
export { compileFilter, filterDocument, matchesFilter, parsePayload, type FilterDocument, type FilterTester } from "./match-filter";
export { dottedPathProblem, MAX_PATH_CHARS } from "./dotted-path";
