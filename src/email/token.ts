/**
 * Email one-time tokens and codes: each message's link token is sealed with
 * the `email` purpose key (its own `typ`, so no other token passes as one),
 * names one purpose (`kind`), the address it was sent to, and a random id
 * (`jti`) that `store.consume` marks used. Nothing is kept in clear: the
 * store only ever sees the id, and the 6-digit code rides sealed in the
 * asking browser's `email_flow` cookie, next to the same id, so the link and
 * the code of one message sign in once between them.
 *
 * @module
 */

import { encodeBase64Url } from "../jose/base64url.ts";
import type { Jose } from "../jose/types.ts";
import { timingSafeEqual } from "../crypto/timing_safe_equal.ts";

/** What an email token is for; a token of one kind is never accepted for another. */
export type EmailTokenKind = "sign-in" | "verify-email" | "change-email" | "reset-password";

const KINDS: readonly EmailTokenKind[] = [
  "sign-in",
  "verify-email",
  "change-email",
  "reset-password",
];

/** The claims of an email token, once opened. */
export interface EmailToken {
  /** What the token is for. */
  kind: EmailTokenKind;
  /** The address the message went to (for `change-email`: the new address). */
  email: string;
  /** The one-time id that `store.consume` marks used. */
  id: string;
  /** When the token expires, in seconds since the epoch. */
  expiresAt: number;
  /** The user the token acts for, when known at send time (verification, change, reset). */
  sub?: string;
  /** Where a sign-in lands (already validated when the token was made). */
  redirectTo?: string;
  /** For `change-email`: the address being replaced. */
  previousEmail?: string;
}

/** What {@link sealEmailToken} needs besides the claims. */
export interface SealEmailTokenInput {
  kind: EmailTokenKind;
  email: string;
  /** Lifetime in whole seconds. */
  maxAge: number;
  /** Now, in seconds since the epoch (the configured clock). */
  now: number;
  sub?: string;
  redirectTo?: string;
  previousEmail?: string;
}

/** Seals a new email token; resolves the token and its claims (the id included). */
export async function sealEmailToken(
  jose: Jose,
  input: SealEmailTokenInput,
): Promise<{ token: string; claims: EmailToken }> {
  const expiresAt = Math.floor(input.now) + input.maxAge;
  // The id is made here, not by encodeJWT, so the claims are known without opening the token.
  const id = encodeBase64Url(crypto.getRandomValues(new Uint8Array(16)));
  const payload: Record<string, string | number> = {
    pur: input.kind,
    em: input.email,
    exp: expiresAt,
    jti: id,
  };
  if (input.sub !== undefined) payload.sub = input.sub;
  if (input.redirectTo !== undefined) payload.rt = input.redirectTo;
  if (input.previousEmail !== undefined) payload.pe = input.previousEmail;
  const claims: EmailToken = { kind: input.kind, email: input.email, id, expiresAt };
  if (input.sub !== undefined) claims.sub = input.sub;
  if (input.redirectTo !== undefined) claims.redirectTo = input.redirectTo;
  if (input.previousEmail !== undefined) claims.previousEmail = input.previousEmail;
  return { token: await jose.encodeJWT(payload), claims };
}

/**
 * Opens an email token of the expected kind (or one of the expected kinds);
 * `null` when it is forged, tampered with, expired, malformed or of another
 * kind.
 */
export async function openEmailToken(
  jose: Jose,
  token: unknown,
  kind: EmailTokenKind | readonly EmailTokenKind[],
): Promise<EmailToken | null> {
  if (typeof token !== "string" || token.length === 0 || token.length > 4096) return null;
  try {
    // Our own expiry is exact: the JOSE clock tolerance must not stretch a one-time link.
    return toEmailToken(await jose.decodeJWT(token, { clockTolerance: 0 }), kind);
  } catch {
    return null;
  }
}

function optionalString(value: unknown): value is string | undefined {
  return value === undefined || (typeof value === "string" && value.length > 0);
}

function toEmailToken(
  claims: Record<string, unknown>,
  expected: EmailTokenKind | readonly EmailTokenKind[],
): EmailToken | null {
  const { pur, em, jti, exp, sub, rt, pe } = claims;
  const kinds: readonly string[] = typeof expected === "string" ? [expected] : expected;
  if (typeof pur !== "string" || !kinds.includes(pur) || !KINDS.includes(pur as EmailTokenKind)) {
    return null;
  }
  const kind = pur as EmailTokenKind;
  if (typeof em !== "string" || em.length === 0 || typeof jti !== "string" || jti.length < 16) {
    return null;
  }
  if (typeof exp !== "number" || !Number.isFinite(exp)) return null;
  if (!optionalString(sub) || !optionalString(rt) || !optionalString(pe)) return null;
  const token: EmailToken = { kind, email: em, id: jti, expiresAt: exp };
  if (sub !== undefined) token.sub = sub;
  if (rt !== undefined) token.redirectTo = rt;
  if (pe !== undefined) token.previousEmail = pe;
  return token;
}

const CODE_DIGITS = 6;
const CODE_PATTERN = /^[0-9]{6}$/;

/** A uniformly random 6-digit code (rejection sampling: no modulo bias). */
export function generateEmailCode(): string {
  const limit = 4_294_000_000; // the largest multiple of 10^6 below 2^32
  const buffer = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buffer);
    if (buffer[0] < limit) return String(buffer[0] % 1_000_000).padStart(CODE_DIGITS, "0");
  }
}

/**
 * Whether a submitted code is well formed: exactly six ASCII digits (no
 * spaces, signs, letters or other scripts' digits).
 */
export function isEmailCode(value: unknown): value is string {
  return typeof value === "string" && CODE_PATTERN.test(value);
}

/** Compares a submitted code with the sealed one in constant time. */
export function emailCodeMatches(submitted: string, expected: string): boolean {
  return isEmailCode(submitted) && isEmailCode(expected) && timingSafeEqual(submitted, expected);
}
