/**
 * What a link carries between the provider's answer and the save: the
 * prepared account (its tokens already sealed, its user decided), and the
 * scope arithmetic of a link (RFC 6749 section 3.3 scope tokens).
 *
 * @module
 */

import { AuthError } from "../errors.ts";
import { isRecord } from "../is_record.ts";

/** An account ready to save: its tokens sealed, its user decided. */
export interface PreparedAccount {
  sub: string;
  provider: string;
  providerAccountId: string;
  scope: string;
  expiresAt?: number;
  tokens: string;
  /** Whether the new tokens hold a refresh token (else the old one is kept). */
  refresh: boolean;
}

/** Scope tokens (RFC 6749 3.3), space-separated, at most 1,000 characters. */
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

/** Checks a link's extra `scope`; 400 `invalid_request` for anything but scope tokens. */
export function checkLinkScope(value: unknown): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string" || value.length > 1000 || !SCOPE.test(value)) {
    throw new AuthError(
      "invalid_request",
      '"scope" is invalid; expected scope tokens separated by spaces, e.g. "repo read:org".',
    );
  }
  return value;
}

/** `a` with the tokens of `b` it lacks, in order. */
export function addScopes(a: string, b: string | undefined): string {
  if (b === undefined || b === "") return a;
  const have = a.split(" ").filter((token) => token !== "");
  for (const token of b.split(" ")) if (token !== "" && !have.includes(token)) have.push(token);
  return have.join(" ");
}

/** Reads a prepared account back (from the `two_factor` cookie, sealed there). */
export function readPrepared(text: string): PreparedAccount {
  const value: unknown = JSON.parse(text);
  if (
    !isRecord(value) || typeof value.sub !== "string" || typeof value.provider !== "string" ||
    typeof value.providerAccountId !== "string" || typeof value.scope !== "string" ||
    typeof value.tokens !== "string" || typeof value.refresh !== "boolean" ||
    (value.expiresAt !== undefined && typeof value.expiresAt !== "number")
  ) {
    throw new TypeError("The prepared account is malformed; expected one prepareAccount made.");
  }
  return value as unknown as PreparedAccount;
}
