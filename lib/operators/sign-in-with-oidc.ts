import { and, eq } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { operators, type OperatorRole } from "../db/schema";
import { newId } from "../ids";
import { normalizeSignInEmail } from "./count-sign-in-attempt";
import { toOperator, type Operator } from "./schemas";

/** Who the identity provider says signed in: its ID token's `iss`, `sub`, `email` and `email_verified`. */
export type OidcIdentity = { issuer: string; subject: string; email: string | null; emailVerified: boolean };

/** Why a sign-in through the identity provider is refused; the sign-in page says each in words. */
export const OIDC_REFUSALS = ["unverified_email", "unknown_operator", "no_role", "disabled", "linked_elsewhere"] as const;
export type OidcRefusal = (typeof OIDC_REFUSALS)[number];

export type OidcSignInResult = { ok: true; operator: Operator } | { ok: false; reason: OidcRefusal };

/**
 * Signs in the operator the identity provider vouches for. The provider's account (`iss` + `sub`)
 * is matched first: once linked, it is that operator whatever email the provider sends later —
 * an address reassigned at the provider never hands someone else's account over. Unlinked, the
 * operator is matched by email, case-insensitive, only when the provider says it verified the
 * address, and only an operator not linked to another provider account; the match links them.
 * An unknown address becomes an operator only with `autoCreate`, with the role its groups map to.
 * With a role map (`mappedRole` not undefined) the operator's role is the map's at every sign-in
 * — refused when nothing maps — and a change is audited. A disabled operator is refused. Nothing
 * is written when the sign-in is refused.
 */
export async function signInWithOidc({
  ctx,
  input,
}: {
  ctx: Ctx;
  /** `mappedRole`: what OIDC_ROLE_MAP gives this person's groups (null: nothing); undefined when no map is set. */
  input: { identity: OidcIdentity; autoCreate: boolean; mappedRole: OperatorRole | null | undefined };
}): Promise<OidcSignInResult> {
  const { identity, autoCreate, mappedRole } = input;
  const refuse = (reason: OidcRefusal): OidcSignInResult => ({ ok: false, reason });
  return inTransaction(ctx, async (tx) => {
    const link = and(eq(operators.oidcIssuer, identity.issuer), eq(operators.oidcSubject, identity.subject));
    let [row] = await tx.db.select().from(operators).where(link).limit(1).for("update");
    const linking = !row;
    if (!row) {
      if (!identity.email || !identity.emailVerified) return refuse("unverified_email");
      const email = normalizeSignInEmail(identity.email);
      [row] = await tx.db.select().from(operators).where(eq(operators.email, email)).limit(1).for("update");
      if (!row) {
        if (!autoCreate) return refuse("unknown_operator");
        if (!mappedRole) return refuse("no_role");
        const [created] = await tx.db
          .insert(operators)
          .values({ id: newId("operator"), email, role: mappedRole, passwordHash: null, oidcIssuer: identity.issuer, oidcSubject: identity.subject })
          .returning();
        await recordAuditEvent(tx, { action: "operator.created", targetType: "operator", targetId: created!.id, data: { email, role: mappedRole, via: "oidc" } });
        return { ok: true, operator: toOperator(created!) };
      }
      if (row.oidcSubject !== null) return refuse("linked_elsewhere");
    }
    if (row.disabledAt) return refuse("disabled");
    if (mappedRole === null) return refuse("no_role");
    const before = row;
    const role = mappedRole ?? before.role;
    if (linking || role !== before.role) {
      [row] = await tx.db
        .update(operators)
        .set({ role, oidcIssuer: identity.issuer, oidcSubject: identity.subject })
        .where(eq(operators.id, before.id))
        .returning();
    }
    if (linking) {
      const data = { email: before.email, issuer: identity.issuer, subject: identity.subject };
      await recordAuditEvent(tx, { action: "operator.sso_linked", targetType: "operator", targetId: before.id, data });
    }
    if (role !== before.role) {
      const data = { email: before.email, from: before.role, to: role, via: "oidc" };
      await recordAuditEvent(tx, { action: "operator.role_changed", targetType: "operator", targetId: before.id, data });
    }
    return { ok: true, operator: toOperator(row!) };
  });
}
