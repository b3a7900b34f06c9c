import type { Operator } from "../operators";
import { auth } from "./index";
import { operatorSession } from "./request-session";
import { systemCtx } from "../open-ctx";

/**
 * The signed-in operator of a page render, read fresh from the database with the session's row;
 * null when signed out, removed, or the session was ended. `mustEnroll`: a second factor is
 * required of everyone and this operator has none yet — the dashboard sends them to enroll.
 */
export async function currentOperator(): Promise<(Operator & { sessionId: string; mustEnroll: boolean }) | null> {
  const session = await auth();
  const id = session?.user?.id;
  return id ? operatorSession(systemCtx(), { operatorId: id, sessionId: session.sessionId }) : null;
}
