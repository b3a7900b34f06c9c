import { findOperator, type Operator } from "../operators";
import { auth } from "./index";
import { systemCtx } from "../open-ctx";

/** The signed-in operator of a page render, read fresh from the database; null when signed out or removed. */
export async function currentOperator(): Promise<Operator | null> {
  const session = await auth();
  const id = session?.user?.id;
  return id ? findOperator(systemCtx(), id) : null;
}
