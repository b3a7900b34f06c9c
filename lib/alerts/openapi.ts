import type { z } from "zod";
import { input, output, type Assert, type Item, type Same } from "../openapi/operation";

import type { createAlertChannel } from "./create-alert-channel";
import type { listAlertChannels, listAlerts } from "./queries";
import { Alert, AlertChannel, AlertTestQueued, CreateAlertChannelInput, CreatedAlertChannel, UpdateAlertChannelInput } from "./schemas";
import type { testAlertChannel } from "./test-alert-channel";
import type { updateAlertChannel } from "./update-alert-channel";

// This domain's part of the OpenAPI document, assembled by lib/api-document/document.ts.
type _DocumentedAnswersMatch = [
  Assert<Same<z.infer<typeof AlertChannel>, Item<typeof listAlertChannels>>>,
  Assert<Same<z.infer<typeof AlertChannel>, Awaited<ReturnType<typeof updateAlertChannel>>>>,
  Assert<Same<z.infer<typeof CreatedAlertChannel>, Awaited<ReturnType<typeof createAlertChannel>>>>,
  Assert<Same<z.infer<typeof AlertTestQueued>, Awaited<ReturnType<typeof testAlertChannel>>>>,
  Assert<Same<z.infer<typeof Alert>, Item<typeof listAlerts>>>,
];

export const alertTag = {
  name: "Alerts",
  description: "Where alerts about failing, exhausted, disabled, recovered and enabled endpoints go, and the log of every alert sent, suppressed or failed.",
} as const;

export const alertSchemas = {
  AlertChannel: output(AlertChannel),
  CreatedAlertChannel: output(CreatedAlertChannel),
  CreateAlertChannelInput: input(CreateAlertChannelInput),
  UpdateAlertChannelInput: input(UpdateAlertChannelInput),
  AlertTestQueued: output(AlertTestQueued),
  Alert: output(Alert),
};
