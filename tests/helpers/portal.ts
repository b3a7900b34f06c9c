import { call, type Api } from "./api";

/** Mints a portal link for a consumer with an API key: its one-time `pt_` token, not yet exchanged. */
export async function mintPortalLink(api: Api, consumer: string, link: Record<string, unknown> = {}): Promise<string> {
  const minted = await api.post(`/api/v1/consumers/${consumer}/portal-links`, link);
  if (minted.status !== 201) throw new Error(`portal link: ${minted.status} ${minted.text}`);
  return linkToken(minted.body.url);
}

/** Mints a portal link for a consumer with an API key and exchanges it: a live `ps_` session. */
export async function portalSession(api: Api, consumer: string, link: Record<string, unknown> = {}) {
  const token = await mintPortalLink(api, consumer, link);
  const exchanged = await call("POST", "/api/v1/portal/session", { body: { token } });
  if (exchanged.status !== 201) throw new Error(`portal session: ${exchanged.status} ${exchanged.text}`);
  return { token: exchanged.body.session_token as string, session: exchanged.body, linkToken: token };
}

export function linkToken(url: string): string {
  const token = /#token=(pt_[A-Za-z0-9_-]+)$/.exec(url)?.[1];
  if (!token) throw new Error(`no token in the fragment of ${url}`);
  return token;
}
