/**
 * Checks shared by the store adapters: arguments on the way in (TypeError)
 * and values read back from a backend (Error), so that what a store returns
 * is exactly what `saveSession` accepted. Messages never quote keys: a key
 * may be an OAuth `state` or a username.
 *
 * @module
 */

import { isRecord } from "../is_record.ts";
import type { StoredPasskey, StoredSession } from "./types.ts";

// The checks the per-process pieces need too live with them, so that those pieces need no more.
export { checkSeconds, hitCount } from "./_local.ts";

/** Longest id, sub or key, in UTF-16 code units (Deno KV caps a whole key at 2 KiB). */
export const MAX_KEY_LENGTH = 256;
/** Longest user agent a store keeps; longer ones are cut. */
export const MAX_USER_AGENT_LENGTH = 256;

/** Throws a TypeError unless `value` is a non-empty string of at most 256 characters. */
export function checkKey(name: string, value: unknown): string {
  if (typeof value !== "string" || value === "" || value.length > MAX_KEY_LENGTH) {
    throw new TypeError(
      `${name} must be a non-empty string of at most ${MAX_KEY_LENGTH} characters; ` +
        `expected e.g. a UUID or a short hash of a longer value.`,
    );
  }
  return value;
}

function isTime(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** Cuts a string to `max` code units without leaving half of a surrogate pair. */
function cut(value: string, max: number): string {
  if (value.length <= max) return value;
  const code = value.charCodeAt(max - 1);
  return value.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Validates a session handed to `saveSession` and returns the copy a store keeps. */
export function checkSession(session: unknown): StoredSession {
  if (!isRecord(session)) {
    throw new TypeError("session must be an object; expected { id, sub, createdAt, expiresAt }.");
  }
  const id = checkKey("session.id", session.id);
  const sub = checkKey("session.sub", session.sub);
  if (!isTime(session.createdAt) || !isTime(session.expiresAt)) {
    throw new TypeError(
      "session.createdAt and session.expiresAt must be finite numbers; " +
        "expected seconds since the epoch.",
    );
  }
  const userAgent = session.userAgent;
  if (userAgent !== undefined && typeof userAgent !== "string") {
    throw new TypeError("session.userAgent must be a string when set; expected a User-Agent.");
  }
  const copy: StoredSession = {
    id,
    sub,
    createdAt: session.createdAt,
    expiresAt: session.expiresAt,
  };
  if (userAgent !== undefined) copy.userAgent = cut(userAgent, MAX_USER_AGENT_LENGTH);
  return copy;
}

/** The error for a backend value that is not what the store wrote. */
export function corrupt(what: string): Error {
  return new Error(
    `The store holds ${what} that it did not write; expected a value from this store.`,
  );
}

/**
 * Checks a session read back from a backend: the shape `checkSession` keeps,
 * and the id (and user, when known) it was stored under. Throws on anything else.
 */
export function readSession(
  value: unknown,
  expected: { id?: string; sub?: string },
): StoredSession {
  if (
    !isRecord(value) || typeof value.id !== "string" || typeof value.sub !== "string" ||
    value.id === "" || value.sub === "" || !isTime(value.createdAt) ||
    !isTime(value.expiresAt) ||
    (value.userAgent !== undefined &&
      (typeof value.userAgent !== "string" || value.userAgent.length > MAX_USER_AGENT_LENGTH)) ||
    (expected.id !== undefined && value.id !== expected.id) ||
    (expected.sub !== undefined && value.sub !== expected.sub)
  ) {
    throw corrupt("a session");
  }
  const session: StoredSession = {
    id: value.id,
    sub: value.sub,
    createdAt: value.createdAt,
    expiresAt: value.expiresAt,
  };
  if (value.userAgent !== undefined) session.userAgent = value.userAgent;
  return session;
}

/** Parses a session stored as JSON text; throws on text that is not one. */
export function parseSession(
  text: unknown,
  expected: { id?: string; sub?: string },
): StoredSession {
  if (typeof text !== "string") throw corrupt("a session");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw corrupt("a session");
  }
  return readSession(value, expected);
}

/** Whether a session is still active at `nowMs`. */
export function isActive(session: StoredSession, nowMs: number): boolean {
  return session.expiresAt * 1000 > nowMs;
}

/** Longest credential id text: 1,023 bytes in base64url. */
export const MAX_PASSKEY_ID_LENGTH = 1364;
/** Longest passkey name a store keeps. */
export const MAX_PASSKEY_NAME_LENGTH = 100;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Throws a TypeError unless `value` is a credential id: base64url of 1 to 1,364 characters. */
export function checkPasskeyId(value: unknown): string {
  if (typeof value !== "string" || value.length > MAX_PASSKEY_ID_LENGTH || !BASE64URL.test(value)) {
    throw new TypeError(
      `passkey id must be base64url of 1 to ${MAX_PASSKEY_ID_LENGTH} characters; expected a credential id.`,
    );
  }
  return value;
}

/** A sign-in to record on a passkey, saved only over the counter it read (compare-and-set). */
export interface CheckedPasskeyUpdate {
  counter: number;
  lastUsedAt: number;
  backedUp: boolean;
  previousCounter: number;
}

/**
 * Throws a TypeError unless `update` is `{ counter, lastUsedAt, backedUp,
 * previousCounter }`; returns a copy.
 */
export function checkPasskeyUpdate(update: unknown): CheckedPasskeyUpdate {
  if (
    !isRecord(update) || !isCounter(update.counter) || !isTime(update.lastUsedAt) ||
    typeof update.backedUp !== "boolean" || !isCounter(update.previousCounter)
  ) {
    throw new TypeError(
      "update must be { counter, lastUsedAt, backedUp, previousCounter }; expected whole counters from 0, seconds since the epoch and a boolean.",
    );
  }
  return {
    counter: update.counter,
    lastUsedAt: update.lastUsedAt,
    backedUp: update.backedUp,
    previousCounter: update.previousCounter,
  };
}

function isCounter(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
}

function passkeyProblem(value: Record<string, unknown>): boolean {
  return typeof value.id !== "string" || value.id.length > MAX_PASSKEY_ID_LENGTH ||
    !BASE64URL.test(value.id) || typeof value.sub !== "string" || value.sub === "" ||
    value.sub.length > MAX_KEY_LENGTH || typeof value.publicKey !== "string" ||
    !BASE64URL.test(value.publicKey) || ![-8, -7, -257].includes(value.algorithm as number) ||
    !isCounter(value.counter) || !Array.isArray(value.transports) || value.transports.length > 16 ||
    !value.transports.every((t) => typeof t === "string" && t.length <= 32) ||
    typeof value.aaguid !== "string" || !UUID.test(value.aaguid) ||
    typeof value.backedUp !== "boolean" ||
    (value.deviceType !== "singleDevice" && value.deviceType !== "multiDevice") ||
    typeof value.name !== "string" || value.name.length > MAX_PASSKEY_NAME_LENGTH ||
    !isTime(value.createdAt) || (value.lastUsedAt !== undefined && !isTime(value.lastUsedAt));
}

function copyPasskey(value: Record<string, unknown>): StoredPasskey {
  const passkey: StoredPasskey = {
    id: value.id as string,
    sub: value.sub as string,
    publicKey: value.publicKey as string,
    algorithm: value.algorithm as number,
    counter: value.counter as number,
    transports: [...value.transports as string[]],
    aaguid: value.aaguid as string,
    backedUp: value.backedUp as boolean,
    deviceType: value.deviceType as StoredPasskey["deviceType"],
    name: value.name as string,
    createdAt: value.createdAt as number,
  };
  if (value.lastUsedAt !== undefined) passkey.lastUsedAt = value.lastUsedAt as number;
  return passkey;
}

/** Validates a passkey handed to `savePasskey` and returns the copy a store keeps. */
export function checkPasskey(passkey: unknown): StoredPasskey {
  if (!isRecord(passkey) || passkeyProblem(passkey)) {
    throw new TypeError(
      "passkey must be { id, sub, publicKey, algorithm, counter, transports, aaguid, backedUp, " +
        "deviceType, name, createdAt }; expected a record built by the passkey routes.",
    );
  }
  return copyPasskey(passkey);
}

/** Checks a passkey read back from a backend (and the id or user it was stored under). */
export function readPasskey(
  value: unknown,
  expected: { id?: string; sub?: string },
): StoredPasskey {
  if (
    !isRecord(value) || passkeyProblem(value) ||
    (expected.id !== undefined && value.id !== expected.id) ||
    (expected.sub !== undefined && value.sub !== expected.sub)
  ) {
    throw corrupt("a passkey");
  }
  return copyPasskey(value);
}
