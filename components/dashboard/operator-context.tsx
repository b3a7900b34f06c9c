"use client";

import { createContext, useContext } from "react";
import type { Operator } from "@/lib/operators/schemas";

export type SignedInOperator = Pick<Operator, "id" | "email" | "role">;

const OperatorContext = createContext<SignedInOperator | null>(null);

export function OperatorProvider({ operator, children }: { operator: SignedInOperator; children: React.ReactNode }) {
  return <OperatorContext.Provider value={operator}>{children}</OperatorContext.Provider>;
}

/**
 * Who is signed in, for showing or hiding controls. Hiding is a courtesy: the server refuses a
 * viewer's changes whatever the page shows.
 */
export function useOperator(): SignedInOperator {
  const operator = useContext(OperatorContext);
  if (!operator) throw new Error("useOperator outside the dashboard layout");
  return operator;
}
