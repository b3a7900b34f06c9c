import { describe, expect, it } from "vitest";
import { mapRole, parseRoleMap, type RoleMap } from "./oidc-role-map";

const parsed = (text: string) => parseRoleMap(text) as RoleMap;

describe("OIDC_ROLE_MAP", () => {
  it("reads group=role entries, the last = splitting, a * for anyone", () => {
    const map = parsed(" admins=admin, /platform/ops = viewer,team=a=viewer,*=viewer ");
    expect([...map.entries]).toEqual([["admins", "admin"], ["/platform/ops", "viewer"], ["team=a", "viewer"]]);
    expect(map.anyone).toBe("viewer");
  });

  it("says what is wrong with a bad one", () => {
    expect(parseRoleMap("")).toMatch(/at least one group/);
    expect(parseRoleMap("admins")).toMatch(/"admins" is not group=role/);
    expect(parseRoleMap("=admin")).toMatch(/is not group=role/);
    expect(parseRoleMap("ops=operator")).toBe('"ops=operator": the role must be one of admin, viewer');
    expect(parseRoleMap("ops=viewer,ops=admin")).toBe('"ops" is mapped twice');
    expect(parseRoleMap("*=viewer,*=admin")).toBe('"*" is mapped twice');
  });

  it("grants the highest role of the groups that map, * included; null when none maps", () => {
    const map = parsed("admins=admin,ops=viewer");
    expect(mapRole(map, ["ops", "admins"])).toBe("admin");
    expect(mapRole(map, ["ops", "other"])).toBe("viewer");
    expect(mapRole(map, "admins")).toBe("admin");
    expect(mapRole(map, ["other"])).toBeNull();
    expect(mapRole(map, undefined)).toBeNull();
    expect(mapRole(map, [42, { admins: true }])).toBeNull();
    expect(mapRole(parsed("admins=admin,*=viewer"), [])).toBe("viewer");
    expect(mapRole(parsed("*=admin,ops=viewer"), ["ops"])).toBe("admin");
  });
});
