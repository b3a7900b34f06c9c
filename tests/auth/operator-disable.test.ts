import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { operatorFromSession } from "../../lib/auth/request-session";
import { getDb } from "../../lib/db/client";
import { auditEvents, operators } from "../../lib/db/schema";
import { createOperator, deleteOperator, findOperatorByEmail, setOperatorDisabled, signInOperator } from "../../lib/operators";
import { systemCtx } from "../../lib/open-ctx";
import { sessionCookie } from "../helpers/session";

const PASSWORD = "correct horse battery";
const signIn = (email: string) => signInOperator({ ctx: systemCtx(), input: { email, password: PASSWORD, address: null } });
const sessionOf = async (id: string) => operatorFromSession(new Request("http://localhost/", { headers: { cookie: await sessionCookie(id) } }), systemCtx());

describe("disabling an operator (npm run cli -- operator disable|enable)", () => {
  it("refuses the right password, ends sessions at their next request, sends no link; enabling undoes all of it, audited", async () => {
    await createOperator({ ctx: systemCtx(), input: { email: "keeper@example.com", password: PASSWORD, role: "admin" } });
    const ops = await createOperator({ ctx: systemCtx(), input: { email: "ops@example.com", password: PASSWORD, role: "viewer" } });
    expect(await sessionOf(ops.id)).toMatchObject({ id: ops.id });

    await setOperatorDisabled({ ctx: systemCtx(), input: { email: "OPS@example.com", disabled: true } });
    expect(await signIn("ops@example.com")).toEqual({ ok: false, reason: "invalid" });
    expect(await sessionOf(ops.id)).toBeNull();
    // The emailed link's lookup: a disabled operator gets no token.
    expect(await findOperatorByEmail(systemCtx(), "ops@example.com")).toBeNull();
    // Twice is once.
    await setOperatorDisabled({ ctx: systemCtx(), input: { email: "ops@example.com", disabled: true } });

    await setOperatorDisabled({ ctx: systemCtx(), input: { email: "ops@example.com", disabled: false } });
    expect(await signIn("ops@example.com")).toMatchObject({ ok: true });
    expect(await sessionOf(ops.id)).toMatchObject({ id: ops.id });
    const events = await getDb().select().from(auditEvents).where(eq(auditEvents.targetId, ops.id));
    expect(events.map((e) => e.action).filter((a) => a !== "operator.created")).toEqual(["operator.disabled", "operator.enabled"]);
  });

  it("keeps an admin who can sign in: the last one is neither disabled nor removed, and a disabled admin does not count", async () => {
    const db = getDb();
    // From a dashboard with no operator at all (this file's earlier ones removed).
    await db.delete(operators);
    const a = await createOperator({ ctx: systemCtx(), input: { email: "a@example.com", password: PASSWORD, role: "admin" } });
    const b = await createOperator({ ctx: systemCtx(), input: { email: "b@example.com", password: PASSWORD, role: "admin" } });
    await setOperatorDisabled({ ctx: systemCtx(), input: { email: "b@example.com", disabled: true } });
    await expect(setOperatorDisabled({ ctx: systemCtx(), input: { email: "a@example.com", disabled: true } })).rejects.toMatchObject({ code: "last_admin" });
    await expect(deleteOperator({ ctx: systemCtx(), id: a.id })).rejects.toMatchObject({ code: "last_admin" });
    // The disabled one may go: it signs nobody in.
    await deleteOperator({ ctx: systemCtx(), id: b.id });
    await expect(setOperatorDisabled({ ctx: systemCtx(), input: { email: "nobody@example.com", disabled: true } })).rejects.toMatchObject({ status: 404 });
  });
});
