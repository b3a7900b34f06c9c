import { resetConfigForTests } from "../../lib/config";

type Env = Record<string, string | undefined>;

function apply(env: Env) {
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetConfigForTests();
}

/**
 * Runs `fn` with `env` set (undefined unsets) and the config re-read, and puts the environment
 * back however `fn` ends: a failed assertion must not leave the next test a changed policy.
 */
export async function withEnv<T>(env: Env, fn: () => Promise<T>): Promise<T> {
  const saved: Env = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  try {
    apply(env);
    return await fn();
  } finally {
    apply(saved);
  }
}
