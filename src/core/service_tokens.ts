/**
 * The operations behind `GET /jwks`, the API key routes and the server API
 * (`api.issueAccessToken`, `api.verifyApiKey`, `api.createApiKey`,
 * `api.listApiKeys`, `api.deleteApiKey`). An API key is checked in this
 * order: the `Authorization: Bearer` form, the prefix, the shape and the
 * CRC-32 (no store call for anything refused so far), then one store read,
 * the expiry, the hash key named by the record's `kid`, and the keyed hash
 * compared in constant time.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { AuthError } from "../errors.ts";
import type { HttpContext } from "../http_context.ts";
import { timingSafeEqual } from "../crypto/timing_safe_equal.ts";
import { checkAccessTokenOptions, signAccessToken } from "../service_tokens/access_token.ts";
import { API_KEY_ID_PATTERN, newApiKey, parseApiKey } from "../service_tokens/api_key_format.ts";
import { hashApiKey } from "../service_tokens/api_key_hash.ts";
import {
  signingAlgorithmOf,
  type SigningKeys,
  signingKeys,
} from "../service_tokens/signing_keys.ts";
import type { ApiKey, CreatedApiKey, VerifiedApiKey } from "../service_tokens/types.ts";
import type { StoredApiKey } from "../store/types.ts";
import { readSession } from "./session.ts";

/** Longest lifetime of an API key, in seconds: 5 years. */
export const MAX_API_KEY_SECONDS = 5 * 365 * 24 * 60 * 60;
/** Shortest lifetime of an API key, in seconds. */
export const MIN_API_KEY_SECONDS = 60;
/** Least time between two `touchApiKey` calls for one key on one instance, in ms. */
const TOUCH_INTERVAL_MS = 60 * 1000;
/** Keys whose last touch an instance remembers; the oldest is forgotten past this many. */
const MAX_TOUCHED = 10_000;
const MAX_NAME_LENGTH = 100;
const MAX_SCOPES = 64;
const SCOPE = /^[\x21-\x7e]{1,128}$/;

/** The JWKS of an instance without `serviceTokens` whose session keys are asymmetric pairs. */
const sessionOnlyKeys = new WeakMap<AuthContext, () => Promise<SigningKeys>>();

function keysOf(ctx: AuthContext): (() => Promise<SigningKeys>) | undefined {
  if (ctx.serviceTokens) return ctx.serviceTokens.keys;
  const pairs = ctx.sessionKeyPairs.filter((pair) => signingAlgorithmOf(pair) !== undefined);
  if (pairs.length === 0) return undefined;
  let keys = sessionOnlyKeys.get(ctx);
  if (keys === undefined) sessionOnlyKeys.set(ctx, keys = signingKeys([], pairs));
  return keys;
}

/** Whether the instance has asymmetric signing keys to publish. */
export function hasJwks(ctx: AuthContext): boolean {
  return ctx.serviceTokens !== undefined ||
    ctx.sessionKeyPairs.some((pair) => signingAlgorithmOf(pair) !== undefined);
}

/** The JWKS document's text, or `null` without asymmetric keys. */
export async function jwksText(ctx: AuthContext): Promise<string | null> {
  const keys = keysOf(ctx);
  return keys === undefined ? null : (await keys()).jwksText;
}

/** Whose token: the session of a request, or a user named by the server. */
export type AccessTokenSubject = { http: HttpContext } | { sub: string };

/**
 * An access token for the request's user (`null` without a session) or for
 * `sub`. Throws a `TypeError` for invalid options.
 */
export async function issueAccessToken(
  ctx: AuthContext,
  subject: AccessTokenSubject,
  options: unknown,
): Promise<string | null> {
  const settings = ctx.serviceTokens;
  if (settings === undefined) {
    throw new TypeError(
      "issueAccessToken has no signing keys; expected serviceTokens: { keys: [keyPair] } in createAuth.",
    );
  }
  const checked = checkAccessTokenOptions(options);
  let sub: string;
  if ("http" in subject) {
    const session = await readSession(ctx, subject.http);
    if (session === null) return null;
    sub = session.payload.sub;
  } else {
    sub = subject.sub;
  }
  const { tokenKeys } = await settings.keys();
  return await signAccessToken(tokenKeys[0], {
    issuer: settings.issuer,
    clientId: settings.clientId,
    sub,
    now: Math.floor(ctx.clock() / 1000),
  }, checked);
}

function apiKeySettings(ctx: AuthContext): NonNullable<AuthContext["apiKeys"]> {
  if (ctx.apiKeys === undefined) {
    throw new AuthError(
      "invalid_request",
      "API keys are not configured; expected apiKeys: { store } in createAuth.",
      { status: 404 },
    );
  }
  return ctx.apiKeys;
}

function isoDate(seconds: number | undefined): string | null {
  return seconds === undefined ? null : new Date(seconds * 1000).toISOString();
}

/** The public view of a stored key: no hash, no kid, no user. */
function publicApiKey(stored: StoredApiKey): ApiKey {
  return {
    id: stored.id,
    name: stored.name,
    scopes: [...stored.scopes],
    createdAt: isoDate(stored.createdAt)!,
    expiresAt: isoDate(stored.expiresAt),
    lastUsedAt: isoDate(stored.lastUsedAt),
  };
}

function invalid(description: string): AuthError {
  return new AuthError("invalid_request", description);
}

/** Checks `{ name, scopes?, expiresIn? }`; 400 `invalid_request` naming the field otherwise. */
function checkCreateInput(
  input: unknown,
): { name: string; scopes: string[]; expiresIn?: number } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw invalid("The body is not an object; expected { name, scopes?, expiresIn? }.");
  }
  const { name, scopes, expiresIn } = input as Record<string, unknown>;
  if (
    typeof name !== "string" || name.trim() === "" || name.length > MAX_NAME_LENGTH ||
    /\p{Cc}/u.test(name)
  ) {
    throw invalid(
      `name is invalid; expected a name of 1 to ${MAX_NAME_LENGTH} characters without control characters.`,
    );
  }
  let list: string[] = [];
  if (scopes !== undefined) {
    const parts = typeof scopes === "string"
      ? scopes.split(" ").filter((part) => part !== "")
      : scopes;
    if (
      !Array.isArray(parts) || parts.length > MAX_SCOPES ||
      !parts.every((scope) => typeof scope === "string" && SCOPE.test(scope))
    ) {
      throw invalid(
        `scopes is invalid; expected an array of at most ${MAX_SCOPES} strings of 1 to 128 printable characters without spaces.`,
      );
    }
    list = [...new Set(parts as string[])];
  }
  let seconds: number | undefined;
  if (expiresIn !== undefined && expiresIn !== null && expiresIn !== "") {
    seconds = typeof expiresIn === "string" && /^\d{1,10}$/.test(expiresIn)
      ? Number(expiresIn)
      : expiresIn as number;
    if (
      typeof seconds !== "number" || !Number.isInteger(seconds) || seconds < MIN_API_KEY_SECONDS ||
      seconds > MAX_API_KEY_SECONDS
    ) {
      throw invalid(
        `expiresIn is invalid; expected an integer number of seconds from ${MIN_API_KEY_SECONDS} to ${MAX_API_KEY_SECONDS} (5 years), or none.`,
      );
    }
  }
  return { name, scopes: list, expiresIn: seconds };
}

/** Creates a key for `sub`: its text (shown once) and its public record. */
export async function createApiKey(
  ctx: AuthContext,
  sub: string,
  input: unknown,
): Promise<CreatedApiKey> {
  const settings = apiKeySettings(ctx);
  const { name, scopes, expiresIn } = checkCreateInput(input);
  const { current } = await settings.hashers();
  const { id, key } = newApiKey(settings.prefix);
  const now = Math.floor(ctx.clock() / 1000);
  const stored: StoredApiKey = {
    id,
    sub,
    name,
    scopes,
    hash: hashApiKey(current, key),
    kid: current.kid,
    createdAt: now,
  };
  if (expiresIn !== undefined) stored.expiresAt = now + expiresIn;
  await settings.store.saveApiKey(stored);
  ctx.logger.log("info", "api key created", { keyId: id });
  return { key, apiKey: publicApiKey(stored) };
}

/** The user's live keys, oldest first. */
export async function listApiKeys(ctx: AuthContext, sub: string): Promise<ApiKey[]> {
  const settings = apiKeySettings(ctx);
  const nowMs = ctx.clock();
  const stored = await settings.store.listApiKeys(sub);
  return stored
    .filter((apiKey) => apiKey.sub === sub && !expired(apiKey, nowMs))
    .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
    .map(publicApiKey);
}

/** Deletes one of the user's keys; `false` for anyone else's and for unknown ids. */
export async function deleteApiKey(ctx: AuthContext, sub: string, id: string): Promise<boolean> {
  const settings = apiKeySettings(ctx);
  if (typeof id !== "string" || !API_KEY_ID_PATTERN.test(id)) return false;
  const stored = await settings.store.getApiKey(id);
  if (stored === null || stored.sub !== sub) return false;
  const deleted = await settings.store.deleteApiKey(id);
  if (deleted) ctx.logger.log("info", "api key deleted", { keyId: id });
  return deleted;
}

function expired(apiKey: StoredApiKey, nowMs: number): boolean {
  return apiKey.expiresAt !== undefined && apiKey.expiresAt * 1000 <= nowMs;
}

/** The key in `Authorization: Bearer <key>`, or `null`. */
function bearerOf(request: Request): string | null {
  const header = request.headers.get("Authorization");
  if (header === null || header.length > 512) return null;
  const match = /^Bearer ([!-~]+)$/i.exec(header.trim());
  return match === null ? null : match[1];
}

/** Records a use at most once a minute per key on this instance; a failed touch is only logged. */
async function touch(
  settings: NonNullable<AuthContext["apiKeys"]>,
  id: string,
  nowMs: number,
): Promise<void> {
  const last = settings.touched.get(id);
  if (last !== undefined && nowMs - last < TOUCH_INTERVAL_MS && nowMs >= last) return;
  settings.touched.delete(id);
  if (settings.touched.size >= MAX_TOUCHED) {
    settings.touched.delete(settings.touched.keys().next().value!);
  }
  settings.touched.set(id, nowMs);
  try {
    await settings.store.touchApiKey(id, Math.floor(nowMs / 1000));
  } catch {
    // The guard logged it; a missed "last used" time never refuses a valid key.
  }
}

/**
 * The key of a request's `Authorization: Bearer` header, verified:
 * `{ sub, keyId, scopes }`, or `null` for a missing, malformed, unknown,
 * revoked or expired key. A failing store rejects (503), never `null`.
 */
export async function verifyApiKey(
  ctx: AuthContext,
  request: Request,
): Promise<VerifiedApiKey | null> {
  const settings = apiKeySettings(ctx);
  const text = bearerOf(request);
  if (text === null) return null;
  const id = parseApiKey(text, settings.prefix);
  if (id === null) return null;
  const hashers = await settings.hashers();
  const stored = await settings.store.getApiKey(id);
  const nowMs = ctx.clock();
  const hasher = stored === null ? undefined : hashers.byKid.get(stored.kid);
  // The hash is computed whatever was found, so that timing tells no unknown id from a wrong secret.
  const computed = hashApiKey(hasher ?? hashers.current, text);
  if (stored === null || hasher === undefined || expired(stored, nowMs)) return null;
  if (!timingSafeEqual(computed, stored.hash)) return null;
  await touch(settings, id, nowMs);
  return { sub: stored.sub, keyId: id, scopes: [...stored.scopes] };
}
