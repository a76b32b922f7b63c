/**
 * Synchronous checks shared by the config resolvers: each throws a
 * `TypeError` that names the option and what was expected.
 *
 * @module
 */

import { isRecord } from "../is_record.ts";
import { isStandardSchema } from "../standard_schema.ts";

/** Throws the config `TypeError`: what was wrong, then what was expected. */
export function fail(message: string): never {
  throw new TypeError(`createAuth: ${message}`);
}

/** Refuses keys a nested config object does not have (a typo must not pass silently). */
export function knownKeys(value: unknown, name: string, keys: readonly string[]): void {
  if (!isRecord(value)) return;
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) fail(`unknown key "${name}.${key}"; expected ${keys.join(", ")}.`);
  }
}

/** An optional object option. */
export function optionalObject(value: unknown, name: string, example: string): void {
  if (value !== undefined && !isRecord(value)) {
    fail(`${name} is not an object; expected ${example}.`);
  }
}

/** An optional function option. */
export function optionalFunction(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== "function") {
    fail(`${name} is not a function; expected a function.`);
  }
}

/** An optional Standard Schema v1 option. */
export function optionalSchema(value: unknown, name: string): void {
  if (value !== undefined && !isStandardSchema(value)) {
    fail(
      `${name} is not a schema; expected a Standard Schema v1 object (Zod, Valibot, ArkType, ...).`,
    );
  }
}

/**
 * The app's name on the pages people see: `logger.appName`, else
 * `twoFactor.issuer` (the name authenticator apps show), else none.
 */
export function pageAppName(config: Readonly<Record<string, unknown>>): string | undefined {
  const logger = config.logger as { appName?: unknown } | undefined;
  if (typeof logger === "object" && logger !== null && typeof logger.appName === "string") {
    return logger.appName.slice(0, 100) || undefined;
  }
  const twoFactor = config.twoFactor as { issuer?: unknown } | undefined;
  if (typeof twoFactor === "object" && twoFactor !== null && typeof twoFactor.issuer === "string") {
    return twoFactor.issuer.slice(0, 100) || undefined;
  }
  return undefined;
}
