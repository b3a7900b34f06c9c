/**
 * An event type's JSON Schema as the list of fields a reader scans: each property with its type,
 * whether it is required, its description and allowed values, nested objects and array items
 * below their parent. Any JSON object is accepted (the API stores what it was given), so every
 * keyword is read defensively: what is not understood is left out, never thrown on.
 */
export type SchemaCombinator = "oneOf" | "anyOf" | "allOf";

export type SchemaField = {
  /** Unique within one schema: the path from the root, for keys and test ids. */
  key: string;
  /** The property name; null for the root, an array's items or a combinator's option. */
  name: string | null;
  /** What a nameless row is: the array's items, or option `index` (from 1) of a oneOf/anyOf/allOf. */
  role: { kind: "root" } | { kind: "property" } | { kind: "items" } | { kind: "option"; combinator: SchemaCombinator; index: number };
  depth: number;
  /** JSON types, e.g. ["string"], ["integer", "null"]; empty when the schema names none. */
  types: string[];
  /** For an array: its items' types. */
  itemTypes: string[];
  format: string | null;
  /** The options below this row come from this combinator. */
  combinator: SchemaCombinator | null;
  /** A `$ref` that could not be followed inside this schema. */
  ref: string | null;
  required: boolean;
  description: string | null;
  /** Allowed values (`enum`, or `const` as a one-value list), as JSON text. */
  values: string[] | null;
  deprecated: boolean;
};

type Schema = Record<string, unknown>;

const MAX_DEPTH = 12;
const MAX_FIELDS = 500;
const COMBINATORS: SchemaCombinator[] = ["oneOf", "anyOf", "allOf"];

const isSchema = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

/** A local `#/…` pointer into the root schema (`#/$defs/x`, `#/definitions/x`), or null. */
function resolveRef(root: Schema, ref: string): Schema | null {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return null;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isSchema(node)) return null;
    node = node[part];
  }
  return isSchema(node) ? node : null;
}

function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string");
  // Untyped but recognisable: properties mean an object, items an array, enum/const their values' types.
  if (isSchema(schema.properties)) return ["object"];
  if (schema.items !== undefined) return ["array"];
  const values = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : [];
  return [...new Set(values.map((v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" && Number.isInteger(v) ? "integer" : typeof v)))];
}

function valuesOf(schema: Schema): string[] | null {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v));
  if ("const" in schema) return [JSON.stringify(schema.const)];
  return null;
}

export function schemaFields(schema: unknown): SchemaField[] {
  if (!isSchema(schema)) return [];
  const root = schema;
  const fields: SchemaField[] = [];

  /** `followed`: the refs followed on the way here; one met again would never end, and is shown by name. */
  const visit = (node: unknown, at: { key: string; name: string | null; role: SchemaField["role"]; depth: number; required: boolean }, followed: Set<string>): void => {
    if (fields.length >= MAX_FIELDS || !isSchema(node)) return;
    let current = node;
    let ref: string | null = null;
    let inner = followed;
    if (typeof node.$ref === "string") {
      const target = followed.has(node.$ref) ? null : resolveRef(root, node.$ref);
      if (!target) ref = node.$ref;
      else {
        // Keywords beside the $ref (a description, say) win over the target's.
        current = { ...target, ...Object.fromEntries(Object.entries(node).filter(([k]) => k !== "$ref")) };
        inner = new Set(followed).add(node.$ref);
      }
    }

    const types = typesOf(current);
    const items = isSchema(current.items) ? current.items : null;
    const combinator = COMBINATORS.find((c) => Array.isArray(current[c]) && (current[c] as unknown[]).length > 0) ?? null;
    const description = typeof current.description === "string" && current.description.trim() ? current.description.trim() : typeof current.title === "string" && current.title.trim() ? current.title.trim() : null;

    const isRoot = at.role.kind === "root";
    // The root row says only what is not obvious: an object's fields follow at depth 0 without it.
    const onlyObject = types.length === 0 || (types.length === 1 && types[0] === "object");
    const showRow = !isRoot || !onlyObject || combinator !== null || ref !== null || valuesOf(current) !== null;
    const childDepth = showRow ? at.depth + 1 : at.depth;
    if (showRow)
      fields.push({
        key: at.key,
        name: at.name,
        role: at.role,
        depth: at.depth,
        types,
        itemTypes: items ? typesOf(typeof items.$ref === "string" ? (resolveRef(root, items.$ref) ?? items) : items) : [],
        format: typeof current.format === "string" ? current.format : null,
        combinator,
        ref,
        required: at.required,
        description,
        values: valuesOf(current),
        deprecated: current.deprecated === true,
      });
    if (ref !== null || at.depth >= MAX_DEPTH) return;

    if (isSchema(current.properties)) {
      const required = new Set(Array.isArray(current.required) ? current.required.filter((r): r is string => typeof r === "string") : []);
      // Alphabetical: the catalog keeps schemas in jsonb, which does not keep the order they were written in.
      for (const [name, child] of Object.entries(current.properties).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        visit(child, { key: `${at.key}.${name}`, name, role: { kind: "property" }, depth: childDepth, required: required.has(name) }, inner);
    }
    // Items worth a row of their own: objects with fields, or anything with more to say than a type.
    if (items && (isSchema(items.properties) || COMBINATORS.some((c) => Array.isArray(items[c])) || typeof items.$ref === "string" || Array.isArray(items.enum)))
      visit(items, { key: `${at.key}[]`, name: null, role: { kind: "items" }, depth: childDepth, required: false }, inner);
    if (combinator)
      (current[combinator] as unknown[]).forEach((option, i) =>
        visit(option, { key: `${at.key}|${combinator}${i}`, name: null, role: { kind: "option", combinator, index: i + 1 }, depth: childDepth, required: false }, inner),
      );
  };

  visit(root, { key: "$", name: null, role: { kind: "root" }, depth: 0, required: false }, new Set());
  return fields;
}
