/** How long a dotted path may be, in characters. */
export const MAX_PATH_CHARS = 256;
const INHERITED = new Set(["__proto__", "constructor", "prototype"]);

/**
 * What is wrong with a dotted path into a payload ("data.customer.id"), in words, or null when it is
 * one. The payload filters' field names and the ordering key are such paths: segments separated by
 * ".", none empty, none a name every object inherits.
 */
export function dottedPathProblem(path: string): string | null {
  const segments = path.split(".");
  if (path.length > MAX_PATH_CHARS || segments.some((segment) => segment === "")) {
    return `"${path.slice(0, 40)}${path.length > 40 ? "…" : ""}" is not a dotted path (segments separated by ".", none empty, at most ${MAX_PATH_CHARS} characters)`;
  }
  if (segments.some((segment) => INHERITED.has(segment))) {
    return `"${path.slice(0, 40)}" reads a name every object inherits (__proto__, constructor, prototype); use the payload's own fields`;
  }
  return null;
}
