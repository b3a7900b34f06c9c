import { SendTestInput, sendTestMessage } from "@/lib/endpoints";
import { otherMethods } from "@/lib/http/methods";
import { json, parseOptionalBody } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";

export const POST = withApiKey(async ({ req, params, ctx }) =>
  json(await sendTestMessage({ ctx, id: params.id!, input: await parseOptionalBody(req, SendTestInput) }), 202),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
