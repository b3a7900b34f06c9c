"use client";

import { createContext, useContext } from "react";
import { api, type ApiCall } from "./api";

/**
 * Which credential the shared queries call /api/v1 with: the dashboard's session cookie by
 * default, the portal's bearer session where the portal provides one. The hooks in queries/ serve
 * both apps unchanged; the server scopes every answer to whoever the credential names.
 */
const ApiContext = createContext<ApiCall>(api);

export function ApiProvider({ call, children }: { call: ApiCall; children: React.ReactNode }) {
  return <ApiContext.Provider value={call}>{children}</ApiContext.Provider>;
}

export const useApi = (): ApiCall => useContext(ApiContext);
