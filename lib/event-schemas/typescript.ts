import { AppError } from "../errors";

/** The TypeScript type name of an event type's payload: `invoice.paid` → `InvoicePaid`. */
export function typeNameOf(eventType: string): string {
  const name = eventType
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join("");
  return /^[0-9]/.test(name) ? `Event${name}` : name || "Payload";
}

/**
 * A schema as TypeScript declarations (json-schema-to-typescript): the payload's interface, named
 * for its event type (the root `title` is set aside so the name is always that one), with what
 * `$defs` it uses. Nothing outside the schema is ever read (`resolve.external: false`): a stored
 * schema from before remote `$ref`s were refused cannot make this server fetch a URL or a file.
 * Formatted by prettier (the generator's own output has no indentation); the caller keeps what it
 * made, as it costs a few hundred milliseconds. Loaded on first use: ingest never needs it.
 */
export async function schemaTypeScript(schema: Record<string, unknown>, eventType: string, version: number): Promise<string> {
  const { compile } = await import("json-schema-to-typescript");
  const { title: _title, ...root } = structuredClone(schema);
  try {
    return await compile(root, typeNameOf(eventType), {
      bannerComment: `/**\n * The payload of "${eventType.replaceAll("*/", "* /")}", version ${version} of its schema.\n * Generated from the event type's JSON Schema by json-schema-to-typescript.\n */`,
      format: true,
      unknownAny: true,
      strictIndexSignatures: true,
      $refOptions: { resolve: { external: false } },
    });
  } catch (error) {
    throw new AppError(422, "types_unavailable", "Types unavailable", `This schema cannot be made into TypeScript: ${error instanceof Error ? error.message : String(error)}`);
  }
}
