import { getDb } from "../db/client";
import { findOperator, type Operator } from "../operators";
import { auth } from "./index";

/** The signed-in operator of a page render, read fresh from the database; null when signed out or removed. */
export async function currentOperator(): Promise<Operator | null> {
  const session = await auth();
  const id = session?.user?.id;
  return id ? findOperator(getDb(), id) : null;
}
