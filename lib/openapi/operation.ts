import type { z } from "zod";

/**
 * What a domain writes to describe its routes in the OpenAPI document (lib/<domain>/openapi.ts):
 * a tag, its named schemas (components) and its operations. lib/api-document/document.ts assembles them.
 */
export type Io = "input" | "output";
export type SchemaEntry = { schema: z.ZodType; io: Io };
/** Request schemas are converted as zod reads them, answers as they are produced. */
export const input = (schema: z.ZodType): SchemaEntry => ({ schema, io: "input" });
export const output = (schema: z.ZodType): SchemaEntry => ({ schema, io: "output" });

export type Tag = { readonly name: string; readonly description: string };
export type JsonSchema = Record<string, unknown>;
export type Method = "get" | "post" | "put" | "patch" | "delete";
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 503;

export type Operation = {
  method: Method;
  /** OpenAPI form, relative to the server URL /api/v1: /consumers/{consumer}. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Path parameter → its description; must name every {placeholder} of the path. */
  params?: Record<string, string>;
  query?: z.ZodType;
  headers?: { name: string; description: string; schema: z.ZodType; required?: boolean }[];
  /**
   * Each `schema` is the zod object itself, the one a domain names as a component in its schema map
   * (lib/<domain>/openapi.ts): the document refers to it by that name, and in tests and development
   * every 2xx answer is checked against it (lib/openapi/answers.ts).
   */
  body?: { schema: z.ZodType; required?: boolean; description?: string };
  success: {
    status: number;
    description: string;
    schema?: z.ZodType;
    /** `{data: [schema…], next_cursor}` */
    list?: true;
    headers?: Record<string, { description: string; schema: JsonSchema }>;
  };
  /** Other success answers of the same operation (a dry run's 200 beside the 202). */
  also?: { status: number; description: string; schema: z.ZodType }[];
  /** Error answers beyond the ones inferred from params, query and body, or better descriptions of them. */
  errors?: Partial<Record<ErrorStatus, string>>;
  /** No API key needed. */
  public?: boolean;
  /** Only a dashboard session may call it, not an API key (the signed-in operator's own account, operators' sessions): set from the route's access. */
  sessionOnly?: boolean;
  /** A public operation's own credential instead (a polling endpoint's poll token, lib/polling). */
  pollToken?: true;
  /** Errors in the Svix API's shape (`{code, detail}`, JSON) instead of problem+json: the Svix-compatible surface (lib/svix). */
  errorFormat?: "svix";
};

// The documented answers must be the ones the code produces: each domain asserts its own with
// these, and they fail to compile on drift.
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type Assert<T extends true> = T;
export type Item<F extends (...args: never[]) => Promise<{ data: unknown[] }>> = Awaited<ReturnType<F>>["data"][number];
