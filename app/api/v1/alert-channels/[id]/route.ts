import { UpdateAlertChannelInput, deleteAlertChannel, getAlertChannel, updateAlertChannel } from "@/lib/alerts";
import { ignoreBody, json, noContent, parseBody } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { otherMethods } from "@/lib/http/methods";

export const GET = withApiKey(async ({ params, ctx }) => json(await getAlertChannel(ctx, params.id!)));

export const PATCH = withApiKey(async ({ req, params, ctx }) =>
  json(await updateAlertChannel({ ctx, id: params.id!, input: await parseBody(req, UpdateAlertChannelInput) })),
);

export const DELETE = withApiKey(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  await deleteAlertChannel({ ctx, id: params.id! });
  return noContent();
});

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
