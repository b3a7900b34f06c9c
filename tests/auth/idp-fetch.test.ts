import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { idpFetch } from "../../lib/auth/oidc";

/** An identity provider whose first connection closes unanswered — a keep-alive connection it closed just as it was reused — and which answers after. */
async function dropsFirst() {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    if (requests === 1) return req.socket.destroy();
    res.writeHead(200, { "content-type": "application/json" }).end('{"issuer":"here"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/openid-configuration`;
  return { url, requests: () => requests, close: () => server.close() };
}

describe("reaching the identity provider", () => {
  it("fails as plain fetch does when the connection closes unanswered", async () => {
    const idp = await dropsFirst();
    await expect(fetch(idp.url)).rejects.toThrow(TypeError);
    idp.close();
  });

  it("asks a GET (the discovery document) once more, and the sign-in goes on", async () => {
    const idp = await dropsFirst();
    const res = await idpFetch(idp.url);
    expect(await res.json()).toEqual({ issuer: "here" });
    expect(idp.requests()).toBe(2);
    idp.close();
  });

  it("never repeats a POST (the token request: its code is good once)", async () => {
    const idp = await dropsFirst();
    await expect(idpFetch(idp.url, { method: "POST", body: "code=once" })).rejects.toThrow(TypeError);
    expect(idp.requests()).toBe(1);
    idp.close();
  });
});
