/**
 * Environment lookup: `SERVICE_AUTH_{KEY}`, `SERVICE_{KEY}`, `AUTH_{KEY}`,
 * `{KEY}`, first non-empty value wins. Runs on Deno (with or without
 * `--allow-env`), Bun and Node.
 *
 * @module
 */

/**
 * Reads one environment variable; `undefined` when unset or not readable.
 *
 * @example
 * ```ts
 * import { lookupEnv, type EnvReader } from "./env.ts";
 * const fixed: EnvReader = (name) => ({ AUTH_SECRET: "s" } as Record<string, string>)[name];
 * lookupEnv("SECRET", fixed); // "s"
 * ```
 */
export type EnvReader = (name: string) => string | undefined;

/** Levels of the built-in logger, from most to least verbose. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** Prefixes tried in order for every key (SPEC "Environment variables"). */
export const ENV_PREFIXES: readonly string[] = Object.freeze([
  "SERVICE_AUTH_",
  "SERVICE_",
  "AUTH_",
  "",
]);

interface DenoEnvLike {
  permissions?: { querySync?: (desc: { name: "env"; variable: string }) => { state: string } };
  env?: { get?: (name: string) => string | undefined };
}

interface ProcessLike {
  env?: Record<string, string | undefined>;
}

/**
 * Reads a variable from the running runtime without ever prompting or
 * throwing. On Deno a variable is read only when the `env` permission for it
 * is already granted; otherwise it counts as unset. On Bun and Node it comes
 * from `process.env`.
 *
 * @example
 * ```ts
 * import { readRuntimeEnv } from "./env.ts";
 * const home = readRuntimeEnv("HOME"); // undefined without --allow-env on Deno
 * ```
 */
export function readRuntimeEnv(name: string): string | undefined {
  try {
    const g = globalThis as { Deno?: DenoEnvLike; process?: ProcessLike };
    const deno = g.Deno;
    if (typeof deno === "object" && deno !== null && typeof deno.env?.get === "function") {
      // querySync never prompts; without it we cannot know whether get() would.
      if (typeof deno.permissions?.querySync !== "function") return undefined;
      if (deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
        return undefined;
      }
      return deno.env.get(name);
    }
    const env = g.process?.env;
    if (typeof env === "object" && env !== null) {
      const value = env[name];
      return typeof value === "string" ? value : undefined;
    }
  } catch {
    // An invalid name or a sandbox that forbids access means "no value".
  }
  return undefined;
}

/**
 * The variables of `key`'s lookup (`SERVICE_AUTH_{KEY}`, ..., `{KEY}`) that
 * the runtime keeps from this process: on Deno, those whose `env`
 * permission is not granted (they read as unset, without a prompt);
 * elsewhere none.
 *
 * @example
 * ```ts
 * import { unreadableEnv } from "./env.ts";
 * unreadableEnv("SECRET"); // ["SERVICE_AUTH_SECRET", ..., "SECRET"] on Deno without --allow-env
 * ```
 */
export function unreadableEnv(key: string): string[] {
  const deno = (globalThis as { Deno?: DenoEnvLike }).Deno;
  if (typeof deno !== "object" || deno === null || typeof deno.env?.get !== "function") return [];
  const names = ENV_PREFIXES.map((prefix) => prefix + key);
  const query = deno.permissions?.querySync;
  // Without querySync readRuntimeEnv reads nothing, so every name is kept from us.
  if (typeof query !== "function") return names;
  return names.filter((name) => {
    try {
      return query.call(deno.permissions, { name: "env", variable: name }).state !== "granted";
    } catch {
      return false;
    }
  });
}

/**
 * Why `key` may have read as unset although it is set: `read` is the
 * runtime's environment and the runtime denied access to some of its names.
 * A clause for a "not found" message, or `undefined` when access was not
 * the problem (a reader of the app's own, or every name readable).
 *
 * @example
 * ```ts
 * import { envAccessProblem, readRuntimeEnv } from "./env.ts";
 * envAccessProblem("SECRET", readRuntimeEnv);
 * // "the environment could not be read: Deno runs without --allow-env for SERVICE_AUTH_SECRET, ..."
 * ```
 */
export function envAccessProblem(key: string, read: EnvReader): string | undefined {
  if (read !== readRuntimeEnv) return undefined;
  const denied = unreadableEnv(key);
  if (denied.length === 0) return undefined;
  return `the environment could not be read: Deno runs without --allow-env for ${
    denied.join(", ")
  }`;
}

/**
 * Looks up `key` as `SERVICE_AUTH_{KEY}`, `SERVICE_{KEY}`, `AUTH_{KEY}`, then
 * `{KEY}`; the first non-empty value wins. Empty strings are skipped,
 * whitespace is kept as given.
 *
 * @example
 * ```ts
 * import { lookupEnv } from "./env.ts";
 * const env: Record<string, string> = { SERVICE_SECRET: "", AUTH_SECRET: "a" };
 * lookupEnv("SECRET", (name) => env[name]); // "a"
 * ```
 */
export function lookupEnv(key: string, read: EnvReader = readRuntimeEnv): string | undefined {
  for (const prefix of ENV_PREFIXES) {
    const value = read(prefix + key);
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

/**
 * Splits a list such as `TRUSTED_ORIGINS` on commas, semicolons or newlines,
 * trimming entries and dropping empty ones.
 *
 * @example
 * ```ts
 * import { parseList } from "./env.ts";
 * parseList("https://a.example, https://b.example;\nhttps://c.example"); // 3 entries
 * ```
 */
export function parseList(value: string): string[] {
  const out: string[] = [];
  for (const part of value.split(/[,;\r\n]/)) {
    const item = part.trim();
    if (item !== "") out.push(item);
  }
  return out;
}

const DEBUG_ON = new Set(["1", "true", "yes", "on", "debug"]);

/**
 * Reads the `DEBUG` value: on for `1`, `true`, `yes`, `on` or `debug`
 * (case-insensitive, surrounding whitespace ignored), off otherwise.
 *
 * @example
 * ```ts
 * import { parseDebug } from "./env.ts";
 * parseDebug("Yes"); // true
 * parseDebug("0"); // false
 * ```
 */
export function parseDebug(value: string | undefined): boolean {
  return typeof value === "string" && DEBUG_ON.has(value.trim().toLowerCase());
}

const LOG_LEVELS: ReadonlySet<string> = new Set(["debug", "info", "warn", "error"]);

/**
 * Reads the `LOG_LEVEL` value (case-insensitive); `undefined` when unset or
 * not one of `debug`, `info`, `warn`, `error`.
 *
 * @example
 * ```ts
 * import { parseLogLevel } from "./env.ts";
 * parseLogLevel("WARN"); // "warn"
 * parseLogLevel("verbose"); // undefined
 * ```
 */
export function parseLogLevel(value: string | undefined): LogLevel | undefined {
  if (typeof value !== "string") return undefined;
  const level = value.trim().toLowerCase();
  return LOG_LEVELS.has(level) ? level as LogLevel : undefined;
}
