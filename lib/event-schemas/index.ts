export { checkSchema, exampleProblems, InvalidExampleError, InvalidSchemaError, MAX_SCHEMA_BYTES, MAX_SCHEMA_DEPTH, MAX_UNIQUE_ITEMS, PayloadInvalidError, pointerTo } from "./check-schema";
export { compileSchema, MAX_VIOLATIONS, type SchemaValidator, type SchemaViolation } from "./compile-schema";
export { schemaTypeScript, typeNameOf } from "./typescript";
