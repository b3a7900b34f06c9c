import * as path from "./[...path]/route";
import * as alertChannelsId from "./alert-channels/[id]/route";
import * as alertChannelsIdTest from "./alert-channels/[id]/test/route";
import * as alertChannels from "./alert-channels/route";
import * as alerts from "./alerts/route";
import * as apiKeysId from "./api-keys/[id]/route";
import * as apiKeys from "./api-keys/route";
import * as attempts from "./attempts/route";
import * as auditEvents from "./audit-events/route";
import * as consumersConsumerEndpoints from "./consumers/[consumer]/endpoints/route";
import * as consumersConsumerPortalLinks from "./consumers/[consumer]/portal-links/route";
import * as consumersConsumerPortalSessions from "./consumers/[consumer]/portal-sessions/route";
import * as consumersConsumerRecover from "./consumers/[consumer]/recover/route";
import * as consumersConsumer from "./consumers/[consumer]/route";
import * as consumers from "./consumers/route";
import * as dataLifecycle from "./data-lifecycle/route";
import * as endpointsIdDisable from "./endpoints/[id]/disable/route";
import * as endpointsIdEnable from "./endpoints/[id]/enable/route";
import * as endpointsIdRecover from "./endpoints/[id]/recover/route";
import * as endpointsId from "./endpoints/[id]/route";
import * as endpointsIdSecretRotate from "./endpoints/[id]/secret/rotate/route";
import * as endpointsIdSecret from "./endpoints/[id]/secret/route";
import * as endpointsIdStats from "./endpoints/[id]/stats/route";
import * as endpointsIdFilterTest from "./endpoints/[id]/filter/test/route";
import * as endpointsIdLines from "./endpoints/[id]/lines/route";
import * as endpointsIdPoll from "./endpoints/[id]/poll/route";
import * as endpointsIdPollStatus from "./endpoints/[id]/poll-status/route";
import * as endpointsIdPollTokens from "./endpoints/[id]/poll-tokens/route";
import * as endpointsIdPollTokensTokenId from "./endpoints/[id]/poll-tokens/[token_id]/route";
import * as endpointsIdTest from "./endpoints/[id]/test/route";
import * as endpoints from "./endpoints/route";
import * as erasuresId from "./erasures/[id]/route";
import * as eventTypesName from "./event-types/[name]/route";
import * as eventTypesNameSchemas from "./event-types/[name]/schemas/route";
import * as eventTypesNameSchemasVersion from "./event-types/[name]/schemas/[version]/route";
import * as eventTypesNameSchemasVersionTypescript from "./event-types/[name]/schemas/[version]/typescript/route";
import * as eventTypes from "./event-types/route";
import * as messagesIdAttempts from "./messages/[id]/attempts/route";
import * as messagesIdPayload from "./messages/[id]/payload/route";
import * as messagesIdResend from "./messages/[id]/resend/route";
import * as messagesId from "./messages/[id]/route";
import * as messagesBatch from "./messages/batch/route";
import * as messages from "./messages/route";
import * as operatorsId from "./operators/[id]/route";
import * as operatorsIdSessions from "./operators/[id]/sessions/route";
import * as operatorsIdTwoFactor from "./operators/[id]/two-factor/route";
import * as operators from "./operators/route";
import * as portalSession from "./portal/session/route";
import * as sessionsId from "./sessions/[id]/route";
import * as sessionsEndOthers from "./sessions/end-others/route";
import * as sessions from "./sessions/route";
import * as twoFactor from "./two-factor/route";
import * as twoFactorEnrollment from "./two-factor/enrollment/route";
import * as twoFactorEnrollmentConfirm from "./two-factor/enrollment/confirm/route";
import * as twoFactorPolicy from "./two-factor/policy/route";
import * as recoveriesIdCancel from "./recoveries/[id]/cancel/route";
import * as recoveriesIdItems from "./recoveries/[id]/items/route";
import * as recoveriesIdPause from "./recoveries/[id]/pause/route";
import * as recoveriesIdResume from "./recoveries/[id]/resume/route";
import * as recoveriesIdRetryFailed from "./recoveries/[id]/retry-failed/route";
import * as recoveriesId from "./recoveries/[id]/route";
import * as recoveries from "./recoveries/route";
import * as stats from "./stats/route";
import * as app from "./(svix)/app/route";
import * as appAppId from "./(svix)/app/[app_id]/route";
import * as appRest from "./(svix)/app/[...rest]/route";
import * as appAppIdEndpoint from "./(svix)/app/[app_id]/endpoint/route";
import * as appAppIdEndpointEndpointId from "./(svix)/app/[app_id]/endpoint/[endpoint_id]/route";
import * as appAppIdEndpointEndpointIdHeaders from "./(svix)/app/[app_id]/endpoint/[endpoint_id]/headers/route";
import * as appAppIdEndpointEndpointIdMsg from "./(svix)/app/[app_id]/endpoint/[endpoint_id]/msg/route";
import * as appAppIdEndpointEndpointIdRecover from "./(svix)/app/[app_id]/endpoint/[endpoint_id]/recover/route";
import * as appAppIdEndpointEndpointIdReplayMissing from "./(svix)/app/[app_id]/endpoint/[endpoint_id]/replay-missing/route";
import * as appAppIdEndpointEndpointIdSecret from "./(svix)/app/[app_id]/endpoint/[endpoint_id]/secret/route";
import * as appAppIdEndpointEndpointIdSecretRotate from "./(svix)/app/[app_id]/endpoint/[endpoint_id]/secret/rotate/route";
import * as appAppIdEndpointEndpointIdStats from "./(svix)/app/[app_id]/endpoint/[endpoint_id]/stats/route";
import * as appAppIdEndpointEndpointIdSendExample from "./(svix)/app/[app_id]/endpoint/[endpoint_id]/send-example/route";
import * as appAppIdMsg from "./(svix)/app/[app_id]/msg/route";
import * as appAppIdMsgMsgId from "./(svix)/app/[app_id]/msg/[msg_id]/route";
import * as appAppIdMsgMsgIdAttemptAttemptId from "./(svix)/app/[app_id]/msg/[msg_id]/attempt/[attempt_id]/route";
import * as appAppIdMsgMsgIdAttemptAttemptIdContent from "./(svix)/app/[app_id]/msg/[msg_id]/attempt/[attempt_id]/content/route";
import * as appAppIdMsgMsgIdContent from "./(svix)/app/[app_id]/msg/[msg_id]/content/route";
import * as appAppIdMsgBulkExpunge from "./(svix)/app/[app_id]/msg/bulk-expunge/route";
import * as appAppIdMsgExpungeAllContents from "./(svix)/app/[app_id]/msg/expunge-all-contents/route";
import * as appAppIdMsgMsgIdEndpoint from "./(svix)/app/[app_id]/msg/[msg_id]/endpoint/route";
import * as appAppIdMsgMsgIdEndpointEndpointIdResend from "./(svix)/app/[app_id]/msg/[msg_id]/endpoint/[endpoint_id]/resend/route";
import * as appAppIdPollerSinkId from "./(svix)/app/[app_id]/poller/[sink_id]/route";
import * as appAppIdPollerSinkIdConsumerConsumerId from "./(svix)/app/[app_id]/poller/[sink_id]/consumer/[consumer_id]/route";
import * as appAppIdPollerSinkIdConsumerConsumerIdSeek from "./(svix)/app/[app_id]/poller/[sink_id]/consumer/[consumer_id]/seek/route";
import * as appAppIdAttemptEndpointEndpointId from "./(svix)/app/[app_id]/attempt/endpoint/[endpoint_id]/route";
import * as appAppIdAttemptMsgMsgId from "./(svix)/app/[app_id]/attempt/msg/[msg_id]/route";
import * as authAppAppIdExpireAll from "./(svix)/auth/app/[app_id]/expire-all/route";
import * as authAppPortalAccessAppId from "./(svix)/auth/app-portal-access/[app_id]/route";
import * as authLogout from "./(svix)/auth/logout/route";
import * as authRest from "./(svix)/auth/[...rest]/route";
import * as backgroundTask from "./(svix)/background-task/route";
import * as backgroundTaskTaskId from "./(svix)/background-task/[task_id]/route";
import * as backgroundTaskRest from "./(svix)/background-task/[...rest]/route";
import * as eventType from "./(svix)/event-type/route";
import * as eventTypeEventTypeName from "./(svix)/event-type/[event_type_name]/route";
import * as eventTypeRest from "./(svix)/event-type/[...rest]/route";
import * as health from "./(svix)/health/route";
import * as environmentExport from "./(svix)/environment/export/route";
import * as environmentImport from "./(svix)/environment/import/route";
import * as statsUsageApp from "./(svix)/stats/usage/app/route";
import * as operationalWebhookRest from "./(svix)/operational-webhook/[...rest]/route";
import * as operationalWebhookEndpoint from "./(svix)/operational-webhook/endpoint/route";
import * as operationalWebhookEndpointEndpointId from "./(svix)/operational-webhook/endpoint/[endpoint_id]/route";
import * as operationalWebhookEndpointEndpointIdHeaders from "./(svix)/operational-webhook/endpoint/[endpoint_id]/headers/route";
import * as operationalWebhookEndpointEndpointIdSecret from "./(svix)/operational-webhook/endpoint/[endpoint_id]/secret/route";
import * as operationalWebhookEndpointEndpointIdSecretRotate from "./(svix)/operational-webhook/endpoint/[endpoint_id]/secret/rotate/route";

/**
 * Every route under /api/v1 but the OpenAPI document's own, by its OpenAPI path: what the document
 * is built from (openapi.json/route.ts adds itself, as importing it here would make the two files
 * import each other) and, with that one, what the route tests walk (routes.ts; tests/api/routes.test.ts
 * fails for a route file missing from either). A new route is its route.ts — handler, access and
 * OpenAPI operation together — and one line here. Its type is the client's too
 * (components/shared/api.ts: each route's answer, from its documented schema), so it is inferred, not widened.
 */
export const ROUTE_LIST = {
  "/{path*}": path,
  "/alert-channels/{id}": alertChannelsId,
  "/alert-channels/{id}/test": alertChannelsIdTest,
  "/alert-channels": alertChannels,
  "/alerts": alerts,
  "/api-keys/{id}": apiKeysId,
  "/api-keys": apiKeys,
  "/attempts": attempts,
  "/audit-events": auditEvents,
  "/consumers/{consumer}/endpoints": consumersConsumerEndpoints,
  "/consumers/{consumer}/portal-links": consumersConsumerPortalLinks,
  "/consumers/{consumer}/portal-sessions": consumersConsumerPortalSessions,
  "/consumers/{consumer}/recover": consumersConsumerRecover,
  "/consumers/{consumer}": consumersConsumer,
  "/consumers": consumers,
  "/data-lifecycle": dataLifecycle,
  "/endpoints/{id}/disable": endpointsIdDisable,
  "/endpoints/{id}/enable": endpointsIdEnable,
  "/endpoints/{id}/filter/test": endpointsIdFilterTest,
  "/endpoints/{id}/lines": endpointsIdLines,
  "/endpoints/{id}/poll": endpointsIdPoll,
  "/endpoints/{id}/poll-status": endpointsIdPollStatus,
  "/endpoints/{id}/poll-tokens": endpointsIdPollTokens,
  "/endpoints/{id}/poll-tokens/{token_id}": endpointsIdPollTokensTokenId,
  "/endpoints/{id}/recover": endpointsIdRecover,
  "/endpoints/{id}": endpointsId,
  "/endpoints/{id}/secret/rotate": endpointsIdSecretRotate,
  "/endpoints/{id}/secret": endpointsIdSecret,
  "/endpoints/{id}/stats": endpointsIdStats,
  "/endpoints/{id}/test": endpointsIdTest,
  "/endpoints": endpoints,
  "/erasures/{id}": erasuresId,
  "/event-types": eventTypes,
  "/event-types/{name}": eventTypesName,
  "/event-types/{name}/schemas": eventTypesNameSchemas,
  "/event-types/{name}/schemas/{version}": eventTypesNameSchemasVersion,
  "/event-types/{name}/schemas/{version}/typescript": eventTypesNameSchemasVersionTypescript,
  "/messages/{id}/attempts": messagesIdAttempts,
  "/messages/{id}/payload": messagesIdPayload,
  "/messages/{id}/resend": messagesIdResend,
  "/messages/{id}": messagesId,
  "/messages/batch": messagesBatch,
  "/messages": messages,
  "/operators/{id}": operatorsId,
  "/operators/{id}/sessions": operatorsIdSessions,
  "/operators/{id}/two-factor": operatorsIdTwoFactor,
  "/operators": operators,
  "/portal/session": portalSession,
  "/recoveries/{id}/cancel": recoveriesIdCancel,
  "/recoveries/{id}/items": recoveriesIdItems,
  "/recoveries/{id}/pause": recoveriesIdPause,
  "/recoveries/{id}/resume": recoveriesIdResume,
  "/recoveries/{id}/retry-failed": recoveriesIdRetryFailed,
  "/recoveries/{id}": recoveriesId,
  "/recoveries": recoveries,
  "/sessions": sessions,
  "/sessions/{id}": sessionsId,
  "/sessions/end-others": sessionsEndOthers,
  "/stats": stats,
  "/two-factor": twoFactor,
  "/two-factor/enrollment": twoFactorEnrollment,
  "/two-factor/enrollment/confirm": twoFactorEnrollmentConfirm,
  "/two-factor/policy": twoFactorPolicy,
  // The Svix-compatible surface (lib/svix, docs/svix.md).
  "/app": app,
  "/app/{app_id}": appAppId,
  "/app/{rest*}": appRest,
  "/app/{app_id}/endpoint": appAppIdEndpoint,
  "/app/{app_id}/endpoint/{endpoint_id}": appAppIdEndpointEndpointId,
  "/app/{app_id}/endpoint/{endpoint_id}/headers": appAppIdEndpointEndpointIdHeaders,
  "/app/{app_id}/endpoint/{endpoint_id}/msg": appAppIdEndpointEndpointIdMsg,
  "/app/{app_id}/endpoint/{endpoint_id}/recover": appAppIdEndpointEndpointIdRecover,
  "/app/{app_id}/endpoint/{endpoint_id}/replay-missing": appAppIdEndpointEndpointIdReplayMissing,
  "/app/{app_id}/endpoint/{endpoint_id}/secret": appAppIdEndpointEndpointIdSecret,
  "/app/{app_id}/endpoint/{endpoint_id}/secret/rotate": appAppIdEndpointEndpointIdSecretRotate,
  "/app/{app_id}/endpoint/{endpoint_id}/stats": appAppIdEndpointEndpointIdStats,
  "/app/{app_id}/endpoint/{endpoint_id}/send-example": appAppIdEndpointEndpointIdSendExample,
  "/app/{app_id}/msg": appAppIdMsg,
  "/app/{app_id}/msg/{msg_id}": appAppIdMsgMsgId,
  "/app/{app_id}/msg/{msg_id}/attempt/{attempt_id}": appAppIdMsgMsgIdAttemptAttemptId,
  "/app/{app_id}/msg/{msg_id}/attempt/{attempt_id}/content": appAppIdMsgMsgIdAttemptAttemptIdContent,
  "/app/{app_id}/msg/{msg_id}/content": appAppIdMsgMsgIdContent,
  "/app/{app_id}/msg/bulk-expunge": appAppIdMsgBulkExpunge,
  "/app/{app_id}/msg/expunge-all-contents": appAppIdMsgExpungeAllContents,
  "/app/{app_id}/msg/{msg_id}/endpoint": appAppIdMsgMsgIdEndpoint,
  "/app/{app_id}/msg/{msg_id}/endpoint/{endpoint_id}/resend": appAppIdMsgMsgIdEndpointEndpointIdResend,
  "/app/{app_id}/poller/{sink_id}": appAppIdPollerSinkId,
  "/app/{app_id}/poller/{sink_id}/consumer/{consumer_id}": appAppIdPollerSinkIdConsumerConsumerId,
  "/app/{app_id}/poller/{sink_id}/consumer/{consumer_id}/seek": appAppIdPollerSinkIdConsumerConsumerIdSeek,
  "/app/{app_id}/attempt/endpoint/{endpoint_id}": appAppIdAttemptEndpointEndpointId,
  "/app/{app_id}/attempt/msg/{msg_id}": appAppIdAttemptMsgMsgId,
  "/auth/app/{app_id}/expire-all": authAppAppIdExpireAll,
  "/auth/app-portal-access/{app_id}": authAppPortalAccessAppId,
  "/auth/logout": authLogout,
  "/auth/{rest*}": authRest,
  "/background-task": backgroundTask,
  "/background-task/{task_id}": backgroundTaskTaskId,
  "/background-task/{rest*}": backgroundTaskRest,
  "/event-type": eventType,
  "/event-type/{event_type_name}": eventTypeEventTypeName,
  "/event-type/{rest*}": eventTypeRest,
  "/health": health,
  "/environment/export": environmentExport,
  "/environment/import": environmentImport,
  "/stats/usage/app": statsUsageApp,
  "/operational-webhook/{rest*}": operationalWebhookRest,
  "/operational-webhook/endpoint": operationalWebhookEndpoint,
  "/operational-webhook/endpoint/{endpoint_id}": operationalWebhookEndpointEndpointId,
  "/operational-webhook/endpoint/{endpoint_id}/headers": operationalWebhookEndpointEndpointIdHeaders,
  "/operational-webhook/endpoint/{endpoint_id}/secret": operationalWebhookEndpointEndpointIdSecret,
  "/operational-webhook/endpoint/{endpoint_id}/secret/rotate": operationalWebhookEndpointEndpointIdSecretRotate,
} satisfies Record<string, Record<string, unknown>>;
