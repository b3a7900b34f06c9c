import { ApiException as ApiException1, Svix as Svix1, Webhook as Webhook1 } from "svix";
import { ApiException as ApiException2, Svix as Svix2, Webhook as Webhook2 } from "svix2";
import { afterAll, beforeAll } from "vitest";
import { createApiKey } from "../../lib/api-keys";
import { systemCtx } from "../../lib/open-ctx";
import { startHttpApp } from "../helpers/http-app";

/**
 * The two official svix SDKs the Svix-compatible API is tested through (never hand-written HTTP):
 * 1.99.x and 2.x, each with its own ApiException and Webhook. 2.x renamed `update` to `upsert`.
 */
export const SDKS = [
  { name: "svix 1.x", Svix: Svix1 as unknown as typeof Svix2, ApiException: ApiException1 as unknown as typeof ApiException2, Webhook: Webhook1 as unknown as typeof Webhook2 },
  { name: "svix 2.x", Svix: Svix2, ApiException: ApiException2, Webhook: Webhook2 },
] as const;
export type Sdk = (typeof SDKS)[number];

/** A new API key of ours: the token an integration passes to `new Svix(token, { serverUrl })`. */
export async function apiKey(): Promise<string> {
  return (await createApiKey({ ctx: systemCtx(), input: { name: "svix sdk" } })).key;
}

/**
 * The app's route handlers on a real HTTP server and an API key of ours, made before the file's
 * tests and closed after them: `client(sdk)` is that SDK's client on it (with another bearer, say a
 * portal token, when given one). Call it at the top level of the file.
 */
export function sdkServer() {
  let app: Awaited<ReturnType<typeof startHttpApp>> | undefined;
  const server = {
    token: "",
    get url(): string {
      if (!app) throw new Error("sdkServer: not started yet");
      return app.url;
    },
    client: (sdk: Sdk, bearer?: string): Svix2 => new sdk.Svix(bearer ?? server.token, { serverUrl: server.url }),
  };
  beforeAll(async () => {
    app = await startHttpApp();
    server.token = await apiKey();
  });
  afterAll(async () => {
    await app?.close();
  });
  return server;
}

/** `update` in 1.x, `upsert` in 2.x. */
export function upsert<T>(api: unknown, ...args: unknown[]): Promise<T> {
  const target = api as Record<string, (...a: unknown[]) => Promise<T>>;
  return (target.upsert ?? target.update)!.apply(api, args);
}

/** The ApiException a call ends in (failing the test if it succeeds, or throws anything else). */
export async function apiError(sdk: Sdk, call: Promise<unknown>): Promise<{ code: number; body: any; headers: Record<string, string> }> {
  const error = await call.then(
    (value) => {
      throw new Error(`expected an ApiException, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  if (!(error instanceof sdk.ApiException)) throw error;
  const found = error as unknown as { code: number; body: any; headers: Record<string, string> };
  // At 500 and over the SDKs keep the raw text (after their retries); our 5xx bodies are JSON too.
  return typeof found.body === "string" ? { ...found, body: JSON.parse(found.body) } : found;
}
