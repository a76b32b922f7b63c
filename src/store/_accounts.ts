/**
 * Checks shared by the account stores (`_accounts_memory.ts`,
 * `_accounts_redis.ts`, `_accounts_deno_kv.ts`): a `StoredAccount` on the way
 * in (TypeError) and read back from a backend (Error). Messages never quote
 * values: `tokens` is sealed, but a provider account id is still the user's.
 *
 * @module
 */

import { isRecord } from "../is_record.ts";
import { checkKey, corrupt } from "./_validate.ts";
import type { StoredAccount } from "./types.ts";

/** Longest sealed `tokens` string a store accepts (a JWE of three provider tokens). */
export const MAX_SEALED_TOKENS_LENGTH = 64 * 1024;
/** Longest `scope` a store keeps. */
export const MAX_SCOPE_LENGTH = 4096;

function isSeconds(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function problem(value: Record<string, unknown>): boolean {
  return typeof value.scope !== "string" || value.scope.length > MAX_SCOPE_LENGTH ||
    typeof value.tokens !== "string" || value.tokens.length > MAX_SEALED_TOKENS_LENGTH ||
    !isSeconds(value.createdAt) || !isSeconds(value.updatedAt) ||
    (value.expiresAt !== undefined && !isSeconds(value.expiresAt));
}

function copy(value: Record<string, unknown>): StoredAccount {
  const account: StoredAccount = {
    provider: value.provider as string,
    providerAccountId: value.providerAccountId as string,
    sub: value.sub as string,
    scope: value.scope as string,
    tokens: value.tokens as string,
    createdAt: value.createdAt as number,
    updatedAt: value.updatedAt as number,
  };
  if (value.expiresAt !== undefined) account.expiresAt = value.expiresAt as number;
  return account;
}

/** Validates an account handed to `saveAccount` and returns the copy a store keeps. */
export function checkAccount(account: unknown): StoredAccount {
  if (!isRecord(account)) {
    throw new TypeError(
      "account must be an object; expected { provider, providerAccountId, sub, scope, tokens, createdAt, updatedAt }.",
    );
  }
  checkKey("account.provider", account.provider);
  checkKey("account.providerAccountId", account.providerAccountId);
  checkKey("account.sub", account.sub);
  if (problem(account)) {
    throw new TypeError(
      "account.scope, tokens, createdAt, updatedAt or expiresAt is invalid; expected strings and whole seconds since the epoch.",
    );
  }
  return copy(account);
}

/**
 * Checks an account read back from a backend: the shape `checkAccount`
 * keeps, and the keys it was stored under. Throws on anything else.
 */
export function readAccount(
  value: unknown,
  expected: { provider?: string; providerAccountId?: string; sub?: string },
): StoredAccount {
  if (
    !isRecord(value) || typeof value.provider !== "string" || value.provider === "" ||
    typeof value.providerAccountId !== "string" || value.providerAccountId === "" ||
    typeof value.sub !== "string" || value.sub === "" || problem(value) ||
    (expected.provider !== undefined && value.provider !== expected.provider) ||
    (expected.providerAccountId !== undefined &&
      value.providerAccountId !== expected.providerAccountId) ||
    (expected.sub !== undefined && value.sub !== expected.sub)
  ) {
    throw corrupt("an account");
  }
  return copy(value);
}

/** Parses an account stored as JSON text; throws on text that is not one. */
export function parseAccount(
  text: unknown,
  expected: { provider?: string; providerAccountId?: string; sub?: string },
): StoredAccount {
  if (typeof text !== "string") throw corrupt("an account");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw corrupt("an account");
  }
  return readAccount(value, expected);
}

/** One string naming an account, `(provider, providerAccountId)`, that no two accounts share. */
export function accountName(provider: string, providerAccountId: string): string {
  return JSON.stringify([provider, providerAccountId]);
}
