/**
 * ID token validation as OpenID Connect Core 1.0 section 3.1.3.7 says, for
 * the authorization-code flow: a compact JWS (never `none`, never a JWE)
 * with an allowed `alg`, its signature checked with the provider's key, then
 * `iss`, `aud`/`azp`, `exp`, `iat`, `nonce` and `sub`, with a 60 s clock
 * tolerance. Nothing in the token is trusted before its signature checks.
 *
 * @module
 */

import { MAX_TOKEN_BYTES, parseHeader, utf8 } from "../../jose/_common.ts";
import { type JWSKey, prepareJWSKey, verifyWithKey } from "../../jose/jws.ts";
import { AuthError } from "../../errors.ts";
import { isRecord } from "../../is_record.ts";
import { JWS_ALGORITHMS } from "../../jose/algorithms.ts";
import { timingSafeEqual } from "../../crypto/timing_safe_equal.ts";
import type { ProviderMetadata } from "./discovery.ts";
import type { IdTokenKeySource } from "./jwks.ts";

/** The asymmetric algorithms an ID token may be signed with: every JWS algorithm but HMAC. */
export const ID_TOKEN_ALGORITHMS: readonly string[] = Object.freeze(
  JWS_ALGORITHMS.filter((alg) => !alg.startsWith("HS")),
);

/** Default clock tolerance for `exp`, `nbf`, in seconds. */
export const ID_TOKEN_CLOCK_TOLERANCE_SEC = 60;

/** The claims of a validated ID token; other claims (`email`, `name`, ...) pass through. */
export interface IdTokenClaims {
  /** The issuer, equal to the provider's. */
  iss: string;
  /** The subject: a non-empty string of at most 255 characters. */
  sub: string;
  /** The audience, containing the client id. */
  aud: string | string[];
  /** Expiry, in seconds since the epoch. */
  exp: number;
  /** Issue time, in seconds since the epoch. */
  iat: number;
  /** The nonce, equal to the one sent. */
  nonce?: string;
  /** The authorized party, equal to the client id when present. */
  azp?: string;
  /** Any other claim. */
  [claim: string]: unknown;
}

/** What {@link validateIdToken} checks the token against. */
export interface ExpectedIdToken {
  /**
   * The provider's issuer identifier; `iss` must equal it exactly. A
   * function computes it from the signature-verified claims instead (a
   * multi-tenant provider with one issuer per tenant, see
   * `OAuthProviderBase.issuerFor`); `undefined` from it, or a throw, refuses
   * the token.
   */
  issuer: string | ((claims: Readonly<Record<string, unknown>>) => string | undefined);
  /** This client's id; `aud` must contain it, `azp` (when present) equal it. */
  clientId: string;
  /** The nonce sent in the authorization request; when omitted the token must carry none. */
  nonce?: string;
  /** Allowed `alg` values, e.g. from {@link idTokenAlgorithms}. */
  algorithms: readonly string[];
  /** Where asymmetric keys come from: the provider's JWKS ({@link createJwks}). */
  keys: IdTokenKeySource;
  /** The client secret; required when `algorithms` contains `HS256` (its HMAC key). */
  clientSecret?: string;
  /** The clock, in ms since the epoch; default `Date.now`. */
  now?: () => number;
  /** Clock tolerance for `exp` and `nbf`, in seconds; default 60. */
  clockToleranceSec?: number;
}

/**
 * The `alg` values to accept from a provider: its
 * `id_token_signing_alg_values_supported` intersected with RS256/384/512,
 * PS256/384/512, ES256/384/512 and EdDSA; `["RS256"]` when the metadata has
 * no list. `HS256` (keyed with the client secret) is added only when
 * `allowHS256` is set.
 *
 * @example
 * ```ts
 * import { idTokenAlgorithms } from "./id_token.ts";
 * idTokenAlgorithms({ id_token_signing_alg_values_supported: ["RS256", "none", "HS256"] });
 * // ["RS256"]
 * ```
 */
export function idTokenAlgorithms(
  metadata: Pick<ProviderMetadata, "id_token_signing_alg_values_supported"> | undefined,
  options: { allowHS256?: boolean } = {},
): string[] {
  const supported = metadata?.id_token_signing_alg_values_supported;
  const algorithms = supported === undefined
    ? ["RS256"]
    : ID_TOKEN_ALGORITHMS.filter((alg) => supported.includes(alg));
  if (options.allowHS256 === true) algorithms.push("HS256");
  return algorithms;
}

/** A provider-side defect: 502 `server_error`. */
function invalid(problem: string): AuthError {
  return new AuthError("server_error", `The ID token ${problem}.`, { status: 502 });
}

function number(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** The verification key for a header, from the client secret (HS256) or the key source. */
async function keyFor(alg: string, kid: string | undefined, expected: ExpectedIdToken) {
  if (alg !== "HS256") return await expected.keys.getKey({ alg, kid });
  if (expected.clientSecret === undefined) {
    throw invalid("is signed with HS256 but no client secret is configured; expected a key");
  }
  // OpenID Connect Core 10.1: the key is the UTF-8 octets of the client secret.
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(expected.clientSecret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  try {
    return prepareJWSKey(key, "verify");
  } catch {
    // RFC 7518 3.2: an HS256 key has at least 256 bits.
    throw invalid("is signed with HS256 but the client secret is shorter than 32 bytes");
  }
}

function checkAudience(claims: Record<string, unknown>, clientId: string): void {
  const aud = claims.aud;
  const audiences = typeof aud === "string" ? [aud] : aud;
  if (
    !Array.isArray(audiences) || audiences.length === 0 ||
    !audiences.every((item) => typeof item === "string")
  ) {
    throw invalid("has no valid aud claim; expected this client's id");
  }
  if (!audiences.includes(clientId)) {
    throw invalid("is for another audience; expected this client's id in aud");
  }
  const azp = claims.azp;
  if (audiences.length > 1 && azp === undefined) {
    throw invalid("names several audiences without azp; expected azp equal to this client's id");
  }
  if (azp !== undefined && azp !== clientId) {
    throw invalid("names another authorized party; expected azp equal to this client's id");
  }
}

function checkTimes(claims: Record<string, unknown>, expected: ExpectedIdToken): void {
  const nowSec = (expected.now ?? Date.now)() / 1000;
  const tolerance = expected.clockToleranceSec ?? ID_TOKEN_CLOCK_TOLERANCE_SEC;
  if (!number(claims.exp)) throw invalid("has no valid exp claim; expected a number");
  if (nowSec - tolerance >= claims.exp) throw invalid("has expired; expected a fresh token");
  if (!number(claims.iat)) throw invalid("has no valid iat claim; expected a number");
  if (claims.nbf !== undefined) {
    if (!number(claims.nbf)) throw invalid("has an invalid nbf claim; expected a number");
    if (nowSec + tolerance < claims.nbf) {
      throw invalid("is not valid yet; expected a current token");
    }
  }
}

function checkNonce(claims: Record<string, unknown>, nonce: string | undefined): void {
  const actual = claims.nonce;
  if (nonce === undefined) {
    if (actual !== undefined) {
      throw new AuthError(
        "invalid_request",
        "The ID token carries a nonce although none was sent; expected no nonce.",
      );
    }
    return;
  }
  if (typeof actual !== "string") {
    throw new AuthError(
      "invalid_request",
      "The ID token has no nonce; expected the nonce of this sign-in.",
    );
  }
  if (!timingSafeEqual(actual, nonce)) {
    throw new AuthError(
      "invalid_request",
      "The ID token's nonce does not match this sign-in; expected the nonce it was sent.",
    );
  }
}

/** The issuer the verified claims must name; `undefined` when the hook refuses them. */
function expectedIssuer(
  claims: Record<string, unknown>,
  issuer: ExpectedIdToken["issuer"],
): string | undefined {
  if (typeof issuer === "string") return issuer;
  try {
    const computed = issuer(Object.freeze({ ...claims }));
    return typeof computed === "string" ? computed : undefined;
  } catch {
    return undefined;
  }
}

/** Splits and reads the header, refusing what never reaches a key. */
function readHeader(token: unknown, expected: ExpectedIdToken): { alg: string; kid?: string } {
  if (typeof token !== "string" || token === "") {
    throw invalid("is missing; expected the token response to carry one");
  }
  if (token.length > MAX_TOKEN_BYTES) throw invalid("is larger than 16 KiB; expected a JWT");
  const segments = token.split(".").length;
  if (segments === 5) throw invalid("is encrypted (JWE); expected a signed JWT");
  if (segments !== 3) throw invalid("is not a compact JWS; expected a signed JWT");
  let header: Record<string, unknown>;
  try {
    header = parseHeader(token.slice(0, token.indexOf(".")));
  } catch {
    throw invalid("has an unreadable header; expected a JSON object");
  }
  const alg = header.alg;
  if (alg === "none") throw invalid("is unsigned (alg none); expected a signature");
  if (
    typeof alg !== "string" || !expected.algorithms.includes(alg) ||
    !(ID_TOKEN_ALGORITHMS.includes(alg) || alg === "HS256")
  ) {
    throw invalid(
      "is signed with an algorithm that is not allowed; expected one the provider lists",
    );
  }
  if (header.crit !== undefined) {
    throw invalid("has a crit header; expected no critical extensions");
  }
  const typ = header.typ;
  if (typ !== undefined && (typeof typ !== "string" || !/^(application\/)?jwt$/i.test(typ))) {
    throw invalid("has a typ other than JWT; expected an ID token");
  }
  const kid = header.kid;
  if (kid !== undefined && typeof kid !== "string") {
    throw invalid("has an invalid kid; expected a string");
  }
  return { alg, kid };
}

/**
 * Validates an ID token from the token endpoint and returns its claims.
 *
 * In order: a compact JWS of at most 16 KiB (a 5-part JWE, `alg: none`,
 * `crit`, or an `alg` outside `expected.algorithms` are refused before any
 * key is fetched), the signature with the key from `expected.keys` (or the
 * client secret for `HS256`), then `iss` equal to the issuer, `aud`
 * containing the client id (several audiences need `azp`; `azp`, when
 * present, equals the client id), `exp` in the future and `iat` a number
 * (60 s tolerance; `nbf`, if any, not in the future), `nonce` equal to the
 * one sent, `sub` a non-empty string.
 *
 * Any failure is an `AuthError` whose one-sentence description never quotes
 * the token: `invalid_request` (400) for a nonce that does not match this
 * sign-in, `server_error` (502) for everything else.
 *
 * @example
 * ```ts ignore
 * import { createJwks } from "./jwks.ts";
 * import { idTokenAlgorithms, validateIdToken } from "./id_token.ts";
 *
 * const claims = await validateIdToken(tokens.id_token, {
 *   issuer: metadata.issuer,
 *   clientId: provider.clientId,
 *   nonce: flow.nonce,
 *   algorithms: idTokenAlgorithms(metadata),
 *   keys: jwks, // createJwks(metadata.jwks_uri, { fetch }), kept per provider
 * });
 * claims.sub;
 * ```
 */
export async function validateIdToken(
  token: unknown,
  expected: ExpectedIdToken,
): Promise<IdTokenClaims> {
  const { alg, kid } = readHeader(token, expected);
  const jwsKey: JWSKey = await keyFor(alg, kid, expected);
  let payload: Uint8Array;
  try {
    ({ payload } = await verifyWithKey(jwsKey, token as string, {}));
  } catch {
    throw invalid("signature does not verify; expected the provider's signature");
  }
  let claims: unknown;
  try {
    claims = JSON.parse(utf8(payload));
  } catch {
    throw invalid("payload is not JSON; expected a claims object");
  }
  if (!isRecord(claims)) throw invalid("payload is not a JSON object; expected claims");
  if (typeof claims.iss !== "string" || claims.iss !== expectedIssuer(claims, expected.issuer)) {
    throw invalid("names another issuer; expected the provider's issuer");
  }
  checkAudience(claims, expected.clientId);
  checkTimes(claims, expected);
  checkNonce(claims, expected.nonce);
  const sub = claims.sub;
  if (typeof sub !== "string" || sub === "" || sub.length > 255) {
    throw invalid("has no valid sub claim; expected a non-empty string");
  }
  return claims as IdTokenClaims;
}

/**
 * Checks that a user-info response is about the ID token's subject
 * (OpenID Connect Core 5.3.2): its `sub` must equal the ID token's, else a
 * 502 `AuthError` (`server_error`) is thrown.
 *
 * @example
 * ```ts
 * import { checkUserInfoSubject } from "./id_token.ts";
 * checkUserInfoSubject({ sub: "248289761001", email: "j@example.com" }, { sub: "248289761001" });
 * ```
 */
export function checkUserInfoSubject(
  userInfo: Record<string, unknown>,
  claims: Pick<IdTokenClaims, "sub">,
): void {
  if (typeof userInfo.sub !== "string" || userInfo.sub !== claims.sub) {
    throw new AuthError(
      "server_error",
      "The provider's user-info sub does not match the ID token; expected the same subject.",
      { status: 502 },
    );
  }
}
