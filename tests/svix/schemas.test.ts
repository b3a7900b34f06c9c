import { describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api";
import { apiError, sdkServer, SDKS, type Sdk } from "./sdks";

/** Event schemas through the official svix SDKs: `schemas` is our kept versions by number; a rejected payload is Svix's validation error. */
const server = sdkServer();

const V1 = { type: "object", properties: { id: { type: "string" } }, required: ["id"] };
const V2 = { type: "object", properties: { id: { type: "string" }, amount: { type: "integer", minimum: 0 } }, required: ["id", "amount"] };
const V3 = { ...V2, properties: { ...V2.properties, note: { type: "string" } } };

describe.each(SDKS.map((sdk) => [sdk.name, sdk] as const))("%s", (name, sdk: Sdk) => {
  const svix = () => server.client(sdk);
  const prefix = name.replace(/\W/g, "");

  it("keeps each version of `schemas` as ours, numbered alike, and answers them all", async () => {
    const eventName = `${prefix}.versions`;
    const created = await svix().eventType.create({ name: eventName, description: "Versions", schemas: { "1": V1, "2": V2 } });
    expect(created.schemas).toEqual({ "1": V1, "2": V2 });
    const api = await apiClient();
    expect((await api.get(`/api/v1/event-types/${eventName}`)).body).toMatchObject({ schema: V2, schema_version: 2 });

    // The record read, with a version more, sent back: that one is our next.
    const patched = await svix().eventType.patch(eventName, { schemas: { ...created.schemas, "3": V3 } });
    expect(patched.schemas).toEqual({ "1": V1, "2": V2, "3": V3 });
    expect((await svix().eventType.get(eventName)).schemas).toEqual({ "1": V1, "2": V2, "3": V3 });
    expect((await api.get(`/api/v1/event-types/${eventName}/schemas`)).body.data.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    const listed = await svix().eventType.list({ limit: 250, withContent: true });
    expect(listed.data.find((t) => t.name === eventName)?.schemas).toEqual({ "1": V1, "2": V2, "3": V3 });

    // The same record again changes nothing; removing the schema leaves no `schemas`.
    await svix().eventType.patch(eventName, { schemas: { "1": V1, "2": V2, "3": V3 } });
    expect((await api.get(`/api/v1/event-types/${eventName}`)).body.schema_version).toBe(3);
    expect((await svix().eventType.patch(eventName, { schemas: null })).schemas ?? null).toBeNull();
    expect((await api.get(`/api/v1/event-types/${eventName}`)).body).toMatchObject({ schema: null, schema_version: 4 });
  });

  it("refuses a schema that does not compile, in Svix's validation error shape", async () => {
    const error = await apiError(sdk, svix().eventType.create({ name: `${prefix}.bad.schema`, description: "Bad", schemas: { "1": { type: "strin" } } }));
    expect(error.code).toBe(422);
    expect(error.body.detail[0]).toMatchObject({ loc: ["body", "schema", "type"], type: "value_error" });
    const key = await apiError(sdk, svix().eventType.create({ name: `${prefix}.bad.key`, description: "Bad", schemas: { latest: V1 } }));
    expect(key.body.detail).toEqual([{ loc: ["body", "schemas", "latest"], msg: "must be a version number: 1, 2, …", type: "value_error" }]);
  });

  it("answers a message its event type's schema rejects with Svix's validation error, each fault down to where it is", async () => {
    const eventName = `${prefix}.enforced`;
    await svix().eventType.create({ name: eventName, description: "Enforced", schemas: { "1": V2 } });
    const api = await apiClient();
    expect((await api.patch(`/api/v1/event-types/${eventName}`, { enforcement: "reject" })).status).toBe(200);
    const app = await svix().application.create({ name: "Schemas", uid: `${prefix}-schemas` });

    const error = await apiError(sdk, svix().message.create(app.id, { eventType: eventName, payload: { id: 7, amount: -1, items: [] } }));
    expect(error.code).toBe(422);
    expect(error.body.detail).toEqual([
      { loc: ["body", "payload", "id"], msg: "must be string", type: "value_error" },
      { loc: ["body", "payload", "amount"], msg: "must be >= 0", type: "value_error" },
    ]);
    const missing = await apiError(sdk, svix().message.create(app.id, { eventType: eventName, payload: { id: "x" } }));
    expect(missing.body.detail).toEqual([{ loc: ["body", "payload"], msg: 'must have required property \'amount\': "amount"', type: "value_error" }]);

    const ok = await svix().message.create(app.id, { eventType: eventName, payload: { id: "inv_1", amount: 5 } });
    expect(ok.eventType).toBe(eventName);
  });
});
