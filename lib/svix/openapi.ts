import { z } from "zod";
import { input, output, type Assert, type Same } from "../openapi/operation";
import { ApplicationIn, ApplicationOut, ApplicationPatch, type listApplications } from "./applications";
import { BackgroundTaskOut, type listBackgroundTasks } from "./background-tasks";
import { EventTypeIn, EventTypeOut, EventTypePatch, EventTypeUpdate, type listSvixEventTypes } from "./event-types";
import { AppPortalAccessIn, AppPortalAccessOut } from "./portal-access";

// The Svix-compatible surface's part of the OpenAPI document, assembled by lib/openapi/document.ts.
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

const list = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    iterator: z.string().nullable().describe("The last item's id (an event type's name): pass it as `iterator` for the next page; null when `data` is empty."),
    prevIterator: z.string().nullable().describe("`-` and the first item's id: pass it as `iterator` for the page before."),
    done: z.boolean().describe("Whether this is the last page."),
  });

const ListResponseApplicationOut = list(ApplicationOut);
const ListResponseEventTypeOut = list(EventTypeOut);
const ListResponseBackgroundTaskOut = list(BackgroundTaskOut);

type _DocumentedAnswersMatch = [
  Assert<Same<z.infer<typeof ListResponseApplicationOut>, Awaited<ReturnType<typeof listApplications>>>>,
  Assert<Same<z.infer<typeof ListResponseEventTypeOut>, Awaited<ReturnType<typeof listSvixEventTypes>>>>,
  Assert<Same<z.infer<typeof ListResponseBackgroundTaskOut>, Awaited<ReturnType<typeof listBackgroundTasks>>>>,
];

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
};
