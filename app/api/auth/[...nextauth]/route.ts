import type { NextRequest } from "next/server";
import { handlers } from "@/lib/auth";
import { atAppUrl } from "@/lib/auth/oidc";
import { served } from "@/lib/http/served";

// Auth.js's routes (sign-in, sign-out, session): a request id and an access line at info, as the
// REST API's; at APP_URL's origin with single sign-on on (its one redirect URI).
export const GET = served((req: NextRequest) => handlers.GET(atAppUrl(req)), { api: false, access: "info" });
export const POST = served((req: NextRequest) => handlers.POST(atAppUrl(req)), { api: false, access: "info" });
