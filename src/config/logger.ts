/**
 * `logger`: the sink, level and app name, with defaults from `LOG_LEVEL` and `DEBUG`.
 *
 * @module
 */

import { type EnvReader, lookupEnv, parseDebug, parseLogLevel } from "../env.ts";
import { isRecord } from "../is_record.ts";
import { createLogger, type Logger } from "../logger.ts";
import { fail, knownKeys, optionalFunction } from "./_check.ts";

/** Resolves `logger` into the instance logger. */
export function resolveLogger(
  value: unknown,
  context: { read: EnvReader; clock: () => number },
): Logger {
  if (value !== undefined && typeof value !== "boolean" && !isRecord(value)) {
    fail("logger is invalid; expected a boolean or an object like { appName, level, log }.");
  }
  knownKeys(value, "logger", ["appName", "level", "log"]);
  if (isRecord(value)) {
    const { appName, level, log } = value;
    if (appName !== undefined && typeof appName !== "string") {
      fail("logger.appName is not a string; expected a string.");
    }
    if (level !== undefined && (typeof level !== "string" || parseLogLevel(level) !== level)) {
      fail('logger.level is unknown; expected "debug", "info", "warn" or "error".');
    }
    optionalFunction(log, "logger.log");
  }
  return createLogger(value as Parameters<typeof createLogger>[0], {
    level: parseLogLevel(lookupEnv("LOG_LEVEL", context.read)),
    debug: parseDebug(lookupEnv("DEBUG", context.read)),
  }, context.clock);
}
