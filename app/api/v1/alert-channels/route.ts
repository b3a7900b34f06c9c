import { CreateAlertChannelInput, createAlertChannel, listAlertChannels } from "@/lib/alerts";
import { json, parseBody, parseQuery } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";

export const POST = withApiKey(async ({ req, ctx }) =>
  json(await createAlertChannel({ ctx, input: await parseBody(req, CreateAlertChannelInput) }), 201),
);

export const GET = withApiKey(async ({ req, ctx }) => json(await listAlertChannels(ctx, parseQuery(req, PageQuery))));

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
