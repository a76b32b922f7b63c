/**
 * Checks of API key records shared by the store adapters: on the way in
 * (TypeError) and read back from a backend (Error), so that what a store
 * returns is exactly what `saveApiKey` accepted.
 *
 * @module
 */

import { isRecord } from "../is_record.ts";
import { corrupt, MAX_KEY_LENGTH } from "./_validate.ts";
import type { StoredApiKey } from "./types.ts";

/** Longest name of an API key. */
export const MAX_API_KEY_NAME_LENGTH = 100;
const MAX_SCOPES = 64;
const MAX_SCOPE_LENGTH = 128;
const BASE64URL = /^[A-Za-z0-9_-]{1,512}$/;

function isTime(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function isId(value: unknown): value is string {
  return typeof value === "string" && value !== "" && value.length <= MAX_KEY_LENGTH;
}

function problem(value: Record<string, unknown>): boolean {
  return !isId(value.id) || !isId(value.sub) || typeof value.name !== "string" ||
    value.name.length > MAX_API_KEY_NAME_LENGTH || !Array.isArray(value.scopes) ||
    value.scopes.length > MAX_SCOPES ||
    !value.scopes.every((s) => typeof s === "string" && s.length <= MAX_SCOPE_LENGTH) ||
    typeof value.hash !== "string" || !BASE64URL.test(value.hash) ||
    typeof value.kid !== "string" || !BASE64URL.test(value.kid) || !isTime(value.createdAt) ||
    (value.expiresAt !== undefined && !isTime(value.expiresAt)) ||
    (value.lastUsedAt !== undefined && !isTime(value.lastUsedAt));
}

function copy(value: Record<string, unknown>): StoredApiKey {
  const apiKey: StoredApiKey = {
    id: value.id as string,
    sub: value.sub as string,
    name: value.name as string,
    scopes: [...value.scopes as string[]],
    hash: value.hash as string,
    kid: value.kid as string,
    createdAt: value.createdAt as number,
  };
  if (value.expiresAt !== undefined) apiKey.expiresAt = value.expiresAt as number;
  if (value.lastUsedAt !== undefined) apiKey.lastUsedAt = value.lastUsedAt as number;
  return apiKey;
}

/** Throws a TypeError unless `id` is a key id: a non-empty string of at most 256 characters. */
export function checkApiKeyId(id: unknown): string {
  if (!isId(id)) {
    throw new TypeError(
      `api key id must be a non-empty string of at most ${MAX_KEY_LENGTH} characters; expected the id of a key.`,
    );
  }
  return id;
}

/** Validates an API key handed to `saveApiKey` and returns the copy a store keeps. */
export function checkApiKey(apiKey: unknown): StoredApiKey {
  if (!isRecord(apiKey) || problem(apiKey)) {
    throw new TypeError(
      "apiKey must be { id, sub, name, scopes, hash, kid, createdAt, expiresAt?, lastUsedAt? }; " +
        "expected a record built by the API key routes.",
    );
  }
  return copy(apiKey);
}

/** Checks an API key read back from a backend (and the id or user it was stored under). */
export function readApiKey(
  value: unknown,
  expected: { id?: string; sub?: string },
): StoredApiKey {
  if (
    !isRecord(value) || problem(value) ||
    (expected.id !== undefined && value.id !== expected.id) ||
    (expected.sub !== undefined && value.sub !== expected.sub)
  ) {
    throw corrupt("an API key");
  }
  return copy(value);
}

/** Throws a TypeError unless `lastUsedAt` is a finite number of seconds. */
export function checkLastUsedAt(lastUsedAt: unknown): number {
  if (!isTime(lastUsedAt)) {
    throw new TypeError("lastUsedAt must be a finite number; expected seconds since the epoch.");
  }
  return lastUsedAt;
}

/** Whether a key is live at `nowMs` (not expired). */
export function isLiveApiKey(apiKey: StoredApiKey, nowMs: number): boolean {
  return apiKey.expiresAt === undefined || apiKey.expiresAt * 1000 > nowMs;
}
