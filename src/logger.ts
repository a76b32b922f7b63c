/**
 * The built-in logger and the `logger` config option. Nothing that reaches a
 * log line may carry a secret: entries hold fixed messages and error names,
 * and every string is passed through {@link redact}, which hides values
 * (tokens, keys) but keeps the names of errors readable.
 *
 * @module
 */

import type { LogLevel } from "./env.ts";

export type { LogLevel };

import { errorName } from "./errors.ts";

/** One log entry. */
export interface LogEntry {
  /** Severity. */
  level: LogLevel;
  /** A fixed, secret-free message. */
  message: string;
  /** The application name from the custom logger's `appName`, when set. */
  appName?: string;
  /** When the entry was made, as an ISO 8601 string. */
  time: string;
  /** Extra facts: route, provider id, error name. Never values from the request. */
  details?: Record<string, string | number | boolean>;
}

/** A custom logger: its level, application name and sink. */
export interface LoggerOptions {
  /** Added to every entry. */
  appName?: string;
  /** Lowest level written; defaults to `LOG_LEVEL`, else `debug` when `DEBUG` is on, else `warn`. */
  level?: LogLevel;
  /** Receives each entry; defaults to the console. */
  log?: (entry: LogEntry) => void;
}

/** The `logger` config option: `false` silences, `true` or omitted uses the console. */
export type LoggerConfig = boolean | LoggerOptions;

/** The instance's logger. */
export interface Logger {
  /** Writes an entry when `level` is enabled. */
  log(level: LogLevel, message: string, details?: LogEntry["details"]): void;
  /** Logs an unexpected error by name and redacted message; never the stack's values. */
  error(message: string, error: unknown, details?: LogEntry["details"]): void;
}

const RANK: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

// JOSE compact tokens and long base64url/hex runs (keys, codes, cookie values).
const SECRET_LIKE =
  /[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*){0,2}|[A-Za-z0-9_+/=-]{24,}/g;

// An error class's name (`MaxRetriesPerRequestError`) is code, not a value: it stays readable.
const ERROR_CLASS_NAME = /^[A-Z][A-Za-z0-9]*(?:Error|Exception)$/;

/**
 * Replaces token-like and key-like runs in a string with `[redacted]`,
 * except the names of error classes (`...Error`, `...Exception`).
 */
export function redact(text: string): string {
  return text.replace(SECRET_LIKE, (run) => ERROR_CLASS_NAME.test(run) ? run : "[redacted]");
}

/** The redacted message of an Error (never of a Proxy or a throwing getter), as `": text"`. */
function describe(error: unknown): string {
  try {
    const text = error instanceof Error ? error.message : "";
    return typeof text === "string" && text !== "" ? `: ${text}` : "";
  } catch {
    return "";
  }
}

function consoleSink(entry: LogEntry): void {
  const prefix = `[service-stack/auth${entry.appName ? `:${entry.appName}` : ""}]`;
  const details = entry.details ? ` ${JSON.stringify(entry.details)}` : "";
  const line = `${prefix} ${entry.level}: ${entry.message}${details}`;
  if (entry.level === "error") console.error(line);
  else if (entry.level === "warn") console.warn(line);
  else console.log(line);
}

/** Builds the instance logger from the config option and the env-derived defaults. */
export function createLogger(
  config: LoggerConfig | undefined,
  env: { level?: LogLevel; debug: boolean },
  clock: () => number = Date.now,
): Logger {
  const options: LoggerOptions = typeof config === "object" && config !== null ? config : {};
  const silent = config === false;
  const level = options.level ?? env.level ?? (env.debug ? "debug" : "warn");
  const threshold = RANK[level];
  const sink = options.log ?? consoleSink;
  const appName = options.appName;

  function enabled(entryLevel: LogLevel): boolean {
    return !silent && RANK[entryLevel] >= threshold;
  }

  /** Writes an entry whose message is already redacted; redacts the details' strings. */
  function write(entryLevel: LogLevel, message: string, details?: LogEntry["details"]): void {
    const entry: LogEntry = {
      level: entryLevel,
      message,
      time: new Date(clock()).toISOString(),
    };
    if (appName !== undefined) entry.appName = appName;
    if (details) {
      const clean: Record<string, string | number | boolean> = {};
      for (const [key, value] of Object.entries(details)) {
        clean[key] = typeof value === "string" ? redact(value) : value;
      }
      entry.details = clean;
    }
    try {
      sink(entry);
    } catch {
      // A failing sink must never break a request.
    }
  }

  return Object.freeze({
    log(entryLevel: LogLevel, message: string, details?: LogEntry["details"]): void {
      if (enabled(entryLevel)) write(entryLevel, redact(message), details);
    },
    error(message: string, error: unknown, details?: LogEntry["details"]): void {
      if (!enabled("error")) return;
      // The error's name comes from code and errorName bounds it; its message may quote values.
      write("error", `${redact(message)}: ${errorName(error)}${redact(describe(error))}`, details);
    },
  });
}
