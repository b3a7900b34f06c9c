import { describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api";
import { apiError, sdkServer, SDKS, upsert, type Sdk } from "./sdks";

/** Event types through the official svix SDKs: `schemas["1"]` is our schema; DELETE archives. */
const server = sdkServer();

const schema = { type: "object", properties: { id: { type: "string" } }, required: ["id"] };

describe.each(SDKS.map((sdk) => [sdk.name, sdk] as const))("%s", (name, sdk: Sdk) => {
  const svix = () => server.client(sdk);
  const prefix = name.replace(/\W/g, "");

  it("creates, gets, replaces, patches, archives, brings back and expunges an event type", async () => {
    const eventName = `${prefix}.invoice.paid`;
    const created = await svix().eventType.create({ name: eventName, description: "Paid", schemas: { "1": schema }, groupName: "billing" });
    expect(created).toMatchObject({ name: eventName, description: "Paid", schemas: { "1": schema }, archived: false, deprecated: false, groupName: "billing" });
    const taken = await apiError(sdk, svix().eventType.create({ name: eventName, description: "Again" }));
    expect(taken.code).toBe(409);
    expect(taken.body.code).toBe("event_type_exists");

    // Our own API sees the same event type, with the added fields.
    const ours = (await (await apiClient()).get("/api/v1/event-types?limit=250")).body.data.find((t: { name: string }) => t.name === eventName);
    expect(ours).toMatchObject({ schema, group_name: "billing", archived: false, deprecated: false });

    const replaced = await upsert<typeof created>(svix().eventType, eventName, { description: "Paid in full", deprecated: true });
    expect(replaced).toMatchObject({ description: "Paid in full", deprecated: true, groupName: null });
    expect(replaced.schemas ?? null).toBeNull();
    const patched = await svix().eventType.patch(eventName, { schemas: { "1": schema } });
    expect(patched).toMatchObject({ description: "Paid in full", deprecated: true, schemas: { "1": schema } });

    await svix().eventType.delete(eventName);
    expect((await svix().eventType.get(eventName)).archived).toBe(true);
    const visible = await svix().eventType.list({ limit: 250 });
    expect(visible.data.map((t) => t.name)).not.toContain(eventName);
    const all = await svix().eventType.list({ limit: 250, includeArchived: true });
    expect(all.data.map((t) => t.name)).toContain(eventName);

    // Creating an archived name brings it back.
    const back = await svix().eventType.create({ name: eventName, description: "Back" });
    expect(back).toMatchObject({ archived: false, description: "Back" });

    await svix().eventType.delete(eventName, { expunge: true });
    expect((await apiError(sdk, svix().eventType.get(eventName))).code).toBe(404);
  });

  it("makes an event type on PUT of a name none has", async () => {
    const made = await upsert<{ name: string }>(svix().eventType, `${prefix}.made.by.put`, { description: "Put" });
    expect(made.name).toBe(`${prefix}.made.by.put`);
  });

  it("lists by name to done, schemas only with withContent", async () => {
    for (const n of ["c", "a", "e", "b", "d"]) await svix().eventType.create({ name: `${prefix}.list.${n}`, description: n, schemas: { "1": schema } });
    const names: string[] = [];
    let iterator: string | null | undefined;
    for (;;) {
      const page = await svix().eventType.list({ limit: 2, iterator });
      names.push(...page.data.map((t) => t.name));
      expect(page.data.every((t) => (t.schemas ?? null) === null)).toBe(true);
      if (page.done) break;
      iterator = page.iterator;
    }
    const mine = names.filter((n) => n.startsWith(`${prefix}.list.`));
    expect(mine).toEqual(["a", "b", "c", "d", "e"].map((n) => `${prefix}.list.${n}`));
    expect(names).toEqual([...names].sort());
    const withContent = await svix().eventType.list({ limit: 250, withContent: true });
    expect(withContent.data.find((t) => t.name === `${prefix}.list.a`)?.schemas).toEqual({ "1": schema });
    const descending = await svix().eventType.list({ limit: 250, order: "descending" as never });
    expect(descending.data.map((t) => t.name)).toEqual([...names].reverse());
  });

  it("refuses a name or schema that is not one with 422 naming the field", async () => {
    const badName = await apiError(sdk, svix().eventType.create({ name: "has space", description: "" }));
    expect(badName.code).toBe(422);
    expect(badName.body.detail[0].loc).toEqual(["body", "name"]);
    const missing = await apiError(sdk, svix().eventType.patch(`${prefix}.none`, { description: "x" }));
    expect(missing.code).toBe(404);
  });
});
