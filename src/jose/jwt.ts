/**
 * JWT claims (RFC 7519): issuing `iat`/`nbf`/`exp`/`jti`, parsing and checking.
 *
 * @module
 */

import { fail, randomBytes, utf8 } from "./_common.ts";
import {
  decodeBase64Url,
  decodeBase64UrlInto,
  decodedBase64UrlLength,
  encodeBase64Url,
} from "./base64url.ts";
import type { JWTPayload } from "./types.ts";
import { isRecord as isObject } from "../is_record.ts";

function claimInvalid(message: string): never {
  return fail("ERR_JWT_CLAIM_INVALID", message);
}

function checkNumericDate(payload: Record<string, unknown>, name: string): void {
  const value = payload[name];
  if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value))) {
    claimInvalid(`The ${name} claim is not a number; expected seconds since the epoch.`);
  }
}

function checkString(payload: Record<string, unknown>, name: string): void {
  const value = payload[name];
  if (value !== undefined && typeof value !== "string") {
    claimInvalid(`The ${name} claim is not a string; expected a string.`);
  }
}

/** Checks the types of the registered claims. */
export function checkClaimTypes(payload: unknown): JWTPayload {
  if (!isObject(payload)) {
    claimInvalid("The JWT payload is not a JSON object; expected an object of claims.");
  }
  checkNumericDate(payload, "exp");
  checkNumericDate(payload, "nbf");
  checkNumericDate(payload, "iat");
  checkString(payload, "iss");
  checkString(payload, "sub");
  checkString(payload, "jti");
  const aud = payload.aud;
  if (
    aud !== undefined && typeof aud !== "string" &&
    !(Array.isArray(aud) && aud.every((item) => typeof item === "string"))
  ) {
    claimInvalid("The aud claim is not a string or string array; expected one of them.");
  }
  return payload as JWTPayload;
}

/** Options of {@link issueClaims}. */
export interface IssueOptions {
  /** Lifetime in seconds when the payload has no `exp`. */
  maxAge: number;
  issuer?: string;
  audience?: string;
}

/** Adds `iat` and `nbf` (now), `exp` (unless given), `jti` (unless given), `iss`/`aud` (when configured). */
export function issueClaims(payload: JWTPayload, now: number, options: IssueOptions): JWTPayload {
  checkClaimTypes(payload);
  const claims: JWTPayload = {
    ...payload,
    iat: now,
    nbf: now,
    exp: payload.exp ?? now + Math.floor(options.maxAge),
    jti: payload.jti ?? encodeBase64Url(randomBytes(16)),
  };
  if (options.issuer !== undefined) claims.iss = options.issuer;
  if (options.audience !== undefined) claims.aud = options.audience;
  return claims;
}

/** Serializes claims; a payload JSON cannot represent is an error, not a broken token. */
export function serializeClaims(claims: JWTPayload): string {
  try {
    return JSON.stringify(claims);
  } catch {
    return claimInvalid("The JWT payload cannot be serialized to JSON; expected JSON values.");
  }
}

/** Parses verified payload bytes into claims. */
export function parseClaims(bytes: Uint8Array): JWTPayload {
  let value: unknown;
  try {
    value = JSON.parse(utf8(bytes));
  } catch {
    return fail("ERR_JOSE_INVALID", "The JWT payload is not valid JSON; expected a JSON object.");
  }
  return checkClaimTypes(value);
}

/** Reused for payload segments: decoding, UTF-8 and JSON parsing below finish before any await. */
const scratch = new Uint8Array(8 * 1024);

/**
 * {@link parseClaims} of a base64url payload segment. Decodes into a buffer
 * shared by all calls instead of a new one (allocating a buffer costs more
 * than decoding into it); nothing keeps a reference to it, and no other
 * call can run in between.
 */
export function parseClaimsSegment(segment: string): JWTPayload {
  const length = decodedBase64UrlLength(segment);
  if (length > scratch.length) return parseClaims(decodeBase64Url(segment));
  decodeBase64UrlInto(segment, scratch, 0);
  return parseClaims(scratch.subarray(0, length));
}

/** What {@link checkClaims} enforces. */
export interface ClaimChecks {
  /** Seconds since the epoch. */
  now: number;
  /** Seconds of leeway for `exp` and `nbf`. */
  tolerance: number;
  /** Whether a missing `exp` is an error. */
  requireExp: boolean;
  issuer?: string;
  audience?: string;
}

/** Checks `exp`, `nbf`, `iss` and `aud` of claims whose types are already checked. */
export function checkClaims(claims: JWTPayload, checks: ClaimChecks): JWTPayload {
  const { now, tolerance } = checks;
  if (claims.exp === undefined) {
    if (checks.requireExp) claimInvalid("The JWT has no exp claim; expected an expiry.");
  } else if (claims.exp <= now - tolerance) {
    fail("ERR_JWT_EXPIRED", "The JWT has expired; expected an exp in the future.");
  }
  if (claims.nbf !== undefined && claims.nbf > now + tolerance) {
    fail("ERR_JWT_NOT_YET_VALID", "The JWT is not valid yet; expected an nbf in the past.");
  }
  if (checks.issuer !== undefined && claims.iss !== checks.issuer) {
    claimInvalid(`The iss claim does not match; expected ${JSON.stringify(checks.issuer)}.`);
  }
  if (checks.audience !== undefined) {
    const aud = claims.aud;
    const ok = typeof aud === "string"
      ? aud === checks.audience
      : Array.isArray(aud) && aud.includes(checks.audience);
    if (!ok) {
      claimInvalid(`The aud claim does not match; expected ${JSON.stringify(checks.audience)}.`);
    }
  }
  return claims;
}
