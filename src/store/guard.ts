/**
 * The store as the core uses it: every call bounded by a timeout, and any
 * failure (a rejection, a timeout, garbage) logged by name and turned into
 * 503 `temporarily_unavailable`, so that a store that is down fails closed.
 *
 * @module
 */

import { AuthError, errorName } from "../errors.ts";
import type { Logger } from "../logger.ts";
import type { SessionStore } from "./types.ts";

/** Default bound on one store call, in milliseconds. */
export const DEFAULT_STORE_TIMEOUT_MS = 1000;

const METHODS = [
  "saveSession",
  "getSession",
  "deleteSession",
  "listSessions",
  "deleteSessions",
  "consume",
  "hit",
  "hits",
  "resetHits",
] as const;

function isStoredSession(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { id, sub, createdAt, expiresAt, userAgent } = value as Record<string, unknown>;
  return typeof id === "string" && typeof sub === "string" && typeof createdAt === "number" &&
    typeof expiresAt === "number" && (userAgent === undefined || typeof userAgent === "string");
}

function isHitCount(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { count, resetIn } = value as Record<string, unknown>;
  return Number.isInteger(count) && (count as number) >= 0 && Number.isFinite(resetIn);
}

// What each method may answer; anything else is garbage and fails closed.
const ANSWERS: Readonly<Record<(typeof METHODS)[number], (value: unknown) => boolean>> = {
  saveSession: () => true,
  getSession: (value) => value === null || isStoredSession(value),
  deleteSession: (value) => typeof value === "boolean",
  listSessions: (value) => Array.isArray(value) && value.every(isStoredSession),
  deleteSessions: (value) => Number.isInteger(value),
  consume: (value) => typeof value === "boolean",
  hit: isHitCount,
  hits: (value) => value === null || isHitCount(value),
  resetHits: () => true,
};

/** Whether a value has every method of {@link SessionStore}. */
export function isSessionStore(value: unknown): value is SessionStore {
  return typeof value === "object" && value !== null &&
    METHODS.every((method) => typeof (value as Record<string, unknown>)[method] === "function");
}

/** The error every failed store call becomes: 503, nothing about the store in it. */
export function storeUnavailable(): AuthError {
  return new AuthError(
    "temporarily_unavailable",
    "The session store is unavailable; expected it back shortly: try again.",
  );
}

/** Wraps a store so that each call takes at most `timeoutMs` and fails as a logged 503. */
export function guardStore(
  store: SessionStore,
  options: { timeoutMs: number; logger: Logger },
): SessionStore {
  const guarded = {} as Record<string, unknown>;
  for (const method of METHODS) {
    const call = (store[method] as (...args: unknown[]) => Promise<unknown>).bind(store);
    const check = ANSWERS[method];
    const checked = (answer: unknown) => {
      if (!check(answer)) throw new TypeError(`The store's ${method} answered garbage.`);
      return answer;
    };
    // No async wrapper: each promise hop here is paid by every store call (a rate-limited
    // sign-in makes four).
    guarded[method] = (...args: unknown[]) =>
      bounded(method, () => Promise.resolve(call(...args)).then(checked), options);
  }
  return Object.freeze(guarded) as unknown as SessionStore;
}

export async function bounded<T>(
  method: string,
  call: () => Promise<T>,
  options: { timeoutMs: number; logger: Logger },
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // Called at once (a synchronous throw lands in the catch below), not a turn later.
    const pending = Promise.resolve(call());
    let settled = false;
    pending.then(() => settled = true, () => settled = true);
    // A store that answers at once (memory) needs no timer: arm one only for a call still pending.
    for (let turn = 0; turn < 6 && !settled; turn++) await undefined;
    if (settled) return await pending;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new DOMException("The store did not answer in time.", "TimeoutError")),
        options.timeoutMs,
      );
    });
    return await Promise.race([pending, timeout]);
  } catch (error) {
    options.logger.log("error", "session store failed", {
      operation: method,
      error: errorName(error),
    });
    throw storeUnavailable();
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
