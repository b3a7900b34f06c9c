import { z } from "zod";
import { input, output, type Assert, type Same } from "../openapi/operation";
import { ApplicationIn, ApplicationOut, ApplicationPatch, type listApplications } from "./applications";
import { BackgroundTaskOut, type listBackgroundTasks } from "./background-tasks";
import { EventTypeIn, EventTypeOut, EventTypePatch, EventTypeUpdate, type listSvixEventTypes } from "./event-types";
import { BulkExpungeContentsIn, BulkExpungeContentsOut, ExpungeAllContentsOut } from "./expunge";
import { AppPortalAccessIn, AppPortalAccessOut } from "./portal-access";
import { EventExampleIn } from "./send-example";
import { EnvironmentIn, EnvironmentOut } from "./environment";
import { AppUsageStatsIn, AppUsageStatsOut } from "./usage";
import { PollerOut, SeekIn, SeekOut } from "./poller";
import {
  OperationalWebhookEndpointHeadersIn,
  OperationalWebhookEndpointHeadersOut,
  OperationalWebhookEndpointIn,
  OperationalWebhookEndpointOut,
  OperationalWebhookEndpointSecretIn,
  OperationalWebhookEndpointUpsertIn,
  type listOperationalWebhookEndpoints,
} from "./operational-webhooks";
import {
  EndpointHeadersOut,
  EndpointIn,
  EndpointOut,
  EndpointPatch,
  EndpointStatsOut,
  EndpointUpdate,
  HeadersIn,
  HeadersPatchIn,
  RecoverIn,
  RotateIn,
  type listSvixEndpoints,
} from "./endpoints";
import {
  EndpointMessageOut,
  MessageAttemptOut,
  MessageEndpointOut,
  MessageIn,
  MessageOut,
  type listAttemptedDestinations,
  type listAttemptedMessages,
  type listAttemptsByEndpoint,
  type listSvixMessages,
} from "./messages";

// The Svix-compatible surface's part of the OpenAPI document, assembled by lib/api-document/document.ts.
export const svixTag = {
  name: "Svix",
  description:
    "The Svix API, served beside ours so that the official svix SDKs work with `serverUrl` set to this server (docs/svix.md). " +
    "camelCase bodies; errors are `{code, detail}`, a 422 `{detail: [{loc, msg, type}]}`; lists answer `{data, iterator, prevIterator, done}`; " +
    "every POST is idempotent by its `Idempotency-Key`.",
} as const;

/** Path parameters as Svix names them. */
export const SVIX_APP = { app_id: "The application: the consumer's id (`con_…`), its uid, or the Svix id it was imported with (`app_…`)." };
export const SVIX_EVENT_TYPE = { event_type_name: "The event type's name." };
export const SVIX_TASK = { task_id: "The task's id: a recovery's (`rec_…`)." };
const ENDPOINT_ID = "The endpoint: its id (`ep_…`), its uid within the application, or the Svix id it was imported with.";
const MSG_ID = "The message: its id (`msg_…`) or its eventId.";
export const SVIX_ENDPOINT = { ...SVIX_APP, endpoint_id: ENDPOINT_ID };
export const SVIX_SINK = { ...SVIX_APP, sink_id: "The polling endpoint: its id (`ep_…`), its uid, or the Svix id it was imported with." };
export const SVIX_SINK_CONSUMER = { ...SVIX_SINK, consumer_id: "The reader's own name: its position is kept under it." };
export const SVIX_MESSAGE = { ...SVIX_APP, msg_id: MSG_ID };
export const SVIX_ATTEMPT = { ...SVIX_MESSAGE, attempt_id: "The attempt's id (`att_…`)." };
export const SVIX_RESEND = { ...SVIX_MESSAGE, endpoint_id: ENDPOINT_ID };
export const SVIX_OPERATIONAL_ENDPOINT = { endpoint_id: "The operational webhook endpoint: an alert channel's id (`ach_…`) of kind `webhook`." };

const list = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    iterator: z.string().nullable().describe("The last item's id (an event type's name): pass it as `iterator` for the next page; null when `data` is empty."),
    prevIterator: z.string().nullable().describe("`-` and the first item's id: pass it as `iterator` for the page before."),
    done: z.boolean().describe("Whether this is the last page."),
  });

export const ListResponseApplicationOut = list(ApplicationOut);
export const ListResponseEventTypeOut = list(EventTypeOut);
export const ListResponseBackgroundTaskOut = list(BackgroundTaskOut);
export const ListResponseEndpointOut = list(EndpointOut);
export const ListResponseMessageOut = list(MessageOut);
export const ListResponseMessageAttemptOut = list(MessageAttemptOut);
export const ListResponseEndpointMessageOut = list(EndpointMessageOut);
export const ListResponseMessageEndpointOut = list(MessageEndpointOut);
export const ListResponseOperationalWebhookEndpointOut = list(OperationalWebhookEndpointOut);
export const RecoverOut = BackgroundTaskOut.pick({ id: true, updatedAt: true }).extend({ status: z.literal("running"), task: z.enum(["endpoint.recover", "endpoint.replay"]) });

type _DocumentedAnswersMatch = [
  Assert<Same<z.infer<typeof ListResponseApplicationOut>, Awaited<ReturnType<typeof listApplications>>>>,
  Assert<Same<z.infer<typeof ListResponseEventTypeOut>, Awaited<ReturnType<typeof listSvixEventTypes>>>>,
  Assert<Same<z.infer<typeof ListResponseBackgroundTaskOut>, Awaited<ReturnType<typeof listBackgroundTasks>>>>,
  Assert<Same<z.infer<typeof ListResponseEndpointOut>, Awaited<ReturnType<typeof listSvixEndpoints>>>>,
  Assert<Same<z.infer<typeof ListResponseMessageOut>, Awaited<ReturnType<typeof listSvixMessages>>>>,
  Assert<Same<z.infer<typeof ListResponseMessageAttemptOut>, Awaited<ReturnType<typeof listAttemptsByEndpoint>>>>,
  Assert<Same<z.infer<typeof ListResponseEndpointMessageOut>, Awaited<ReturnType<typeof listAttemptedMessages>>>>,
  Assert<Same<z.infer<typeof ListResponseMessageEndpointOut>, Awaited<ReturnType<typeof listAttemptedDestinations>>>>,
  Assert<Same<z.infer<typeof ListResponseOperationalWebhookEndpointOut>, Awaited<ReturnType<typeof listOperationalWebhookEndpoints>>>>,
];

export const EndpointSecretOut = z.object({ key: z.string() });

export const SvixError = z.object({ code: z.string(), detail: z.string() });
export const SvixValidationError = z.object({
  detail: z.array(z.object({ loc: z.array(z.union([z.string(), z.number().int()])), msg: z.string(), type: z.string() })),
});

export const svixSchemas = {
  SvixError: output(SvixError),
  SvixValidationError: output(SvixValidationError),
  SvixApplicationIn: input(ApplicationIn),
  SvixApplicationPatch: input(ApplicationPatch),
  SvixApplicationOut: output(ApplicationOut),
  SvixListResponseApplicationOut: output(ListResponseApplicationOut),
  SvixEventTypeIn: input(EventTypeIn),
  SvixEventTypeUpdate: input(EventTypeUpdate),
  SvixEventTypePatch: input(EventTypePatch),
  SvixEventTypeOut: output(EventTypeOut),
  SvixListResponseEventTypeOut: output(ListResponseEventTypeOut),
  SvixAppPortalAccessIn: input(AppPortalAccessIn),
  SvixAppPortalAccessOut: output(AppPortalAccessOut),
  SvixBackgroundTaskOut: output(BackgroundTaskOut),
  SvixListResponseBackgroundTaskOut: output(ListResponseBackgroundTaskOut),
  SvixEndpointIn: input(EndpointIn),
  SvixEndpointUpdate: input(EndpointUpdate),
  SvixEndpointPatch: input(EndpointPatch),
  SvixEndpointOut: output(EndpointOut),
  SvixListResponseEndpointOut: output(ListResponseEndpointOut),
  SvixEndpointSecretOut: output(EndpointSecretOut),
  SvixEndpointSecretRotateIn: input(RotateIn),
  SvixEndpointHeadersOut: output(EndpointHeadersOut),
  SvixEndpointHeadersIn: input(HeadersIn),
  SvixEndpointHeadersPatchIn: input(HeadersPatchIn),
  SvixRecoverIn: input(RecoverIn),
  SvixRecoverOut: output(RecoverOut),
  SvixEndpointStats: output(EndpointStatsOut),
  SvixPollerOut: output(PollerOut),
  SvixPollerSeekIn: input(SeekIn),
  SvixPollerSeekOut: output(SeekOut),
  SvixMessageIn: input(MessageIn),
  SvixMessageOut: output(MessageOut),
  SvixListResponseMessageOut: output(ListResponseMessageOut),
  SvixMessageAttemptOut: output(MessageAttemptOut),
  SvixListResponseMessageAttemptOut: output(ListResponseMessageAttemptOut),
  SvixListResponseEndpointMessageOut: output(ListResponseEndpointMessageOut),
  SvixListResponseMessageEndpointOut: output(ListResponseMessageEndpointOut),
  SvixEventExampleIn: input(EventExampleIn),
  SvixBulkExpungeContentsIn: input(BulkExpungeContentsIn),
  SvixBulkExpungeContentsOut: output(BulkExpungeContentsOut),
  SvixExpungeAllContentsOut: output(ExpungeAllContentsOut),
  SvixOperationalWebhookEndpointIn: input(OperationalWebhookEndpointIn),
  SvixOperationalWebhookEndpointUpsertIn: input(OperationalWebhookEndpointUpsertIn),
  SvixOperationalWebhookEndpointOut: output(OperationalWebhookEndpointOut),
  SvixListResponseOperationalWebhookEndpointOut: output(ListResponseOperationalWebhookEndpointOut),
  SvixOperationalWebhookEndpointSecretIn: input(OperationalWebhookEndpointSecretIn),
  SvixOperationalWebhookEndpointHeadersIn: input(OperationalWebhookEndpointHeadersIn),
  SvixOperationalWebhookEndpointHeadersOut: output(OperationalWebhookEndpointHeadersOut),
  SvixEnvironmentIn: input(EnvironmentIn),
  SvixEnvironmentOut: output(EnvironmentOut),
  SvixAppUsageStatsIn: input(AppUsageStatsIn),
  SvixAppUsageStatsOut: output(AppUsageStatsOut),
};
