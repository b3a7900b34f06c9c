import packageJson from "../package.json";

/** This release's version (package.json), reported by GET /api/health and the worker's start line. */
export const VERSION: string = packageJson.version;
