import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { apiError, sdkServer, SDKS, type Sdk } from "./sdks";

/**
 * Svix's environment export and import through both SDKs: this deployment's event types and alert
 * channels as one document, and that document (changed) imported back — added and updated, nothing
 * deleted, all or nothing.
 */
const server = sdkServer();

describe.each(SDKS.map((sdk) => [sdk.name, sdk] as const))("%s", (name, sdk: Sdk) => {
  const svix = () => server.client(sdk);
  const tag = name.replace(/\W/g, "").toLowerCase();
  const channelNamed = async (channelName: string) =>
    ((await call("GET", "/api/v1/alert-channels?limit=250", { key: server.token })).body.data as { name: string; kind: string; kinds: string[] | null; config: Record<string, unknown> }[]).filter(
      (c) => c.name === channelName,
    );

  it("exports event types with their schemas and alert channels with their credentials, and imports them back", async () => {
    const schema = { type: "object", properties: { id: { type: "string" } } };
    await svix().eventType.create({ name: `env.made-${tag}`, description: "Exported", schemas: { "1": schema } });
    await svix().eventType.create({ name: `env.archived-${tag}`, description: "Archived", archived: true });
    const hook = await call("POST", "/api/v1/alert-channels", {
      key: server.token,
      body: { kind: "webhook", name: `env hook ${tag}`, config: { url: `http://127.0.0.1:9/env-${tag}` }, kinds: ["endpoint.disabled"] },
    });
    expect(hook.status, hook.text).toBe(201);

    const exported = await svix().environment.export();
    const made = exported.eventTypes.find((t) => t.name === `env.made-${tag}`);
    expect(made).toMatchObject({ description: "Exported", schemas: { "1": schema } });
    expect(exported.eventTypes.find((t) => t.name === `env.archived-${tag}`)).toMatchObject({ archived: true });
    const channels = (exported.settings as { alertChannels: { kind: string; name: string; kinds: string[] | null; config: Record<string, unknown> }[] }).alertChannels;
    expect(channels.find((c) => c.name === `env hook ${tag}`)).toEqual({
      kind: "webhook",
      name: `env hook ${tag}`,
      kinds: ["endpoint.disabled"],
      config: { url: `http://127.0.0.1:9/env-${tag}`, secret: hook.body.secret },
    });
    expect(exported.connectors).toEqual([]);

    // The document changed and imported: a new event type and channel, an existing one updated.
    await svix().environment.import({
      eventTypes: [
        { ...made!, description: "Imported over" },
        { name: `env.new-${tag}`, description: "New", schemas: { "1": schema } },
      ],
      settings: {
        alertChannels: [
          { kind: "webhook", name: `env hook ${tag}`, kinds: null, config: { url: `http://127.0.0.1:9/env-moved-${tag}` } },
          { kind: "email", name: `env mail ${tag}`, kinds: null, config: { to: ["ops@example.com"] } },
        ],
        // Svix's own settings: not this server's, ignored.
        colorPaletteLight: { primary: "#000" },
      },
    });
    expect((await svix().eventType.get(`env.made-${tag}`)).description).toBe("Imported over");
    expect((await svix().eventType.get(`env.new-${tag}`)).schemas).toEqual({ "1": schema });
    const [moved, ...none] = await channelNamed(`env hook ${tag}`);
    expect(none).toEqual([]);
    expect(moved).toMatchObject({ kind: "webhook", kinds: null });
    expect(moved!.config.url).toContain("127.0.0.1");
    expect((await svix().operationalWebhook.endpoint.getSecret(hook.body.id)).key).toBe(hook.body.secret);
    expect(await channelNamed(`env mail ${tag}`)).toMatchObject([{ kind: "email", config: { to: ["ops@example.com"] } }]);
  });

  it("imports all or nothing: a bad channel changes nothing, a connector is refused", async () => {
    const bad = await apiError(
      sdk,
      svix().environment.import({
        eventTypes: [{ name: `env.never-${tag}`, description: "Never" }],
        settings: {
          alertChannels: [
            { kind: "email", name: `env fine ${tag}`, config: { to: ["ops@example.com"] } },
            { kind: "webhook", name: `env bad ${tag}`, config: { url: "ftp://example.com/hook" } },
          ],
        },
      }),
    );
    expect(bad.code).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["body", "settings", "alertChannels", 1, "config", "url"]);
    expect(await channelNamed(`env fine ${tag}`)).toEqual([]);
    expect((await apiError(sdk, svix().eventType.get(`env.never-${tag}`))).code).toBe(404);

    const refused = await apiError(sdk, svix().environment.import({ connectors: [{ name: "c", transformation: "x" } as never] }));
    expect(refused.code).toBe(422);
    expect(refused.body.detail[0].loc).toEqual(["body", "connectors"]);
  });
});
