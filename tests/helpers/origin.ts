/**
 * The test app's port and origin, defined once. tests/helpers/setup-file.ts sets PORT to
 * TEST_APP_PORT before each file, and APP_URL defaults to http://localhost:$PORT (lib/config.ts),
 * so APP_ORIGIN is the app's own origin: the one the in-process API is called at
 * (tests/helpers/api.ts) and an operator's browser sends (tests/helpers/session.ts). Processes a
 * test starts get a port of their own.
 */
export const TEST_APP_PORT = 3000;
export const APP_ORIGIN = `http://localhost:${TEST_APP_PORT}`;
