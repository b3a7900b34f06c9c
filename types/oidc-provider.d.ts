/** oidc-provider 8 ships no types; the test identity provider (tests/helpers/oidc-idp.ts) uses this much of it. */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    /** A koa middleware; of its context, what the test IdP reads and changes: the answer's JSON body. */
    use(middleware: (ctx: { path: string; method: string; body?: Record<string, unknown> }, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
