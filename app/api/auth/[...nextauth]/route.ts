import { handlers } from "@/lib/auth";
import { served } from "@/lib/http/served";

// Auth.js's routes (sign-in, sign-out, session): a request id and an access line at info, as the REST API's.
export const GET = served(handlers.GET, { api: false, access: "info" });
export const POST = served(handlers.POST, { api: false, access: "info" });
