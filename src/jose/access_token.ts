/**
 * `verifyAccessToken`, for a service that receives access tokens (RFC 9068)
 * from an auth service built with this library, or from any issuer that
 * publishes a JWKS: the algorithm comes from the published key (never
 * `none`, never HMAC), the header `typ` must be `at+jwt`, then `iss`
 * (exact), `aud`, `exp`, `nbf` and `iat` with a 5-second tolerance.
 * Nothing in the token is trusted before its signature checks.
 *
 * @module
 */

import {
  algorithmNotAllowed,
  checkMediaType,
  fail,
  MAX_TOKEN_BYTES,
  parseHeader,
  rejectCrit,
} from "./_common.ts";
import { checkJwksURL, remoteJwks } from "./_remote_jwks.ts";
import { verifyWithKey } from "./jws.ts";
import { parseClaims } from "./jwt.ts";

/** Clock tolerance of {@link verifyAccessToken} for `exp`, `nbf` and `iat`, in seconds. */
export const ACCESS_TOKEN_CLOCK_TOLERANCE = 5;

/** The options of {@link verifyAccessToken}. */
export interface VerifyAccessTokenOptions {
  /** The issuer, e.g. `"https://auth.example.com"`; `iss` must equal it exactly. */
  issuer: string;
  /** This service's identifier (or several): `aud` must contain one of them. */
  audience: string | readonly string[];
  /** The issuer's JWKS, e.g. `"https://auth.example.com/auth/jwks"` (`https:`; `http:` only on localhost). */
  jwksURL: string | URL;
  /** The fetch that reads the JWKS (tests, proxies); default the global `fetch`. */
  fetch?: typeof fetch;
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  clock?: () => number;
}

/** The claims of a verified access token; other claims pass through. */
export interface AccessTokenClaims {
  /** The issuer. */
  iss: string;
  /** The user the token acts for. */
  sub: string;
  /** The audience: one service or several. */
  aud: string | string[];
  /** Expiry, in seconds since the epoch. */
  exp: number;
  /** Issue time, in seconds since the epoch. */
  iat: number;
  /** The token's id. */
  jti?: string;
  /** The scopes granted, space-separated. */
  scope?: string;
  /** The client the token was issued to (RFC 9068). */
  client_id?: string;
  /** Any other claim. */
  [claim: string]: unknown;
}

function claimInvalid(message: string): never {
  return fail("ERR_JWT_CLAIM_INVALID", message);
}

function audiences(value: unknown): readonly string[] {
  const list = typeof value === "string" ? [value] : value;
  if (
    !Array.isArray(list) || list.length === 0 ||
    !list.every((item) => typeof item === "string" && item !== "")
  ) {
    throw new TypeError(
      'audience is invalid; expected a non-empty string or array of strings, e.g. "https://api.example.com".',
    );
  }
  return list;
}

/**
 * Verifies an access token (RFC 9068) against the issuer's published keys
 * and resolves its claims, or rejects with a `JoseError`.
 *
 * The JWKS at `jwksURL` is fetched on first use and cached in the process
 * (10 minutes; per URL and `fetch` function). A token whose `kid` the
 * cached set lacks refetches it at once, later unknown `kid`s at most once
 * a minute. The algorithm is the one of the published key whose `kid` the
 * token names: `alg: "none"`, HMAC algorithms (whatever the key, a public
 * key used as an HMAC secret included) and any `alg` other than the key's
 * are refused before any signature check. The header `typ` must be
 * `at+jwt` (or `application/at+jwt`), so an ID token or a session token
 * signed by a key of the same set is refused. Then `iss` must equal
 * `issuer`, `aud` contain `audience` (or one of several), `exp` and `iat`
 * be present, with a clock tolerance of 5 seconds on `exp`, `nbf` and `iat`.
 *
 * @param token The access token, e.g. from `Authorization: Bearer <token>`.
 * @param options `issuer`, `audience` and `jwksURL`; `fetch` and `clock` for tests.
 * @returns The token's claims.
 * @throws {JoseError} `ERR_JOSE_ALG_NOT_ALLOWED`, `ERR_JOSE_TYP_MISMATCH`,
 * `ERR_JOSE_KID_UNKNOWN`, `ERR_JWS_SIGNATURE_INVALID`, `ERR_JWT_EXPIRED`,
 * `ERR_JWT_NOT_YET_VALID`, `ERR_JWT_CLAIM_INVALID`, `ERR_JOSE_INVALID`,
 * `ERR_JOSE_UNSUPPORTED_HEADER`, `ERR_JOSE_TOO_LARGE`.
 *
 * @example
 * ```ts
 * import { verifyAccessToken } from "@service-stack/auth/jose";
 *
 * Deno.serve(async (request) => {
 *   const token = request.headers.get("Authorization")?.replace(/^Bearer /, "") ?? "";
 *   try {
 *     const claims = await verifyAccessToken(token, {
 *       issuer: "https://auth.example.com",
 *       audience: "https://api.example.com",
 *       jwksURL: "https://auth.example.com/auth/jwks",
 *     });
 *     return Response.json({ hello: claims.sub });
 *   } catch {
 *     return new Response(null, { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
 *   }
 * });
 * ```
 */
export async function verifyAccessToken(
  token: string,
  options: VerifyAccessTokenOptions,
): Promise<AccessTokenClaims> {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("options is not an object; expected { issuer, audience, jwksURL }.");
  }
  const { issuer } = options;
  if (typeof issuer !== "string" || issuer === "") {
    throw new TypeError(
      'issuer is invalid; expected the issuer\'s URL, e.g. "https://auth.example.com".',
    );
  }
  const accepted = audiences(options.audience);
  const url = checkJwksURL(options.jwksURL);
  const fetchFn = options.fetch ?? globalThis.fetch;
  const nowMs = (options.clock ?? Date.now)();
  if (typeof token !== "string" || token.length > MAX_TOKEN_BYTES) {
    fail(
      "ERR_JOSE_TOO_LARGE",
      "The token is not a string of at most 16 KiB; expected a compact JWS.",
    );
  }
  const dot = token.indexOf(".");
  if (dot < 1) fail("ERR_JOSE_INVALID", "The token is not a compact JWS; expected three segments.");
  const header = parseHeader(token.slice(0, dot));
  rejectCrit(header);
  const alg = header.alg;
  // Only asymmetric algorithms: `none` and HS* end here, whatever key the set holds.
  if (typeof alg !== "string" || alg === "none" || alg.startsWith("HS")) {
    algorithmNotAllowed("alg", alg);
  }
  checkMediaType(header, "typ", "at+jwt");
  const kid = header.kid;
  if (kid !== undefined && (typeof kid !== "string" || kid === "" || kid.length > 256)) {
    fail("ERR_JOSE_INVALID", "The header kid is not a short string; expected a key id.");
  }
  const key = await remoteJwks(url, { fetch: fetchFn }).getKey(alg, kid, nowMs);
  const { payload } = await verifyWithKey(key, token, {
    typ: "at+jwt",
    parsedHeader: header,
  });
  const claims = parseClaims(payload) as Record<string, unknown>;
  const now = Math.floor(nowMs / 1000);
  const tolerance = ACCESS_TOKEN_CLOCK_TOLERANCE;
  if (claims.iss !== issuer) {
    claimInvalid(`The iss claim does not match; expected ${JSON.stringify(issuer)}.`);
  }
  const aud = claims.aud;
  const audList = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud : [];
  if (!audList.some((item) => accepted.includes(item))) {
    claimInvalid("The aud claim does not name this service; expected the configured audience.");
  }
  if (typeof claims.sub !== "string" || claims.sub === "") {
    claimInvalid("The token has no sub claim; expected the subject.");
  }
  if (typeof claims.exp !== "number") {
    claimInvalid("The token has no exp claim; expected an expiry.");
  }
  if (claims.exp <= now - tolerance) {
    fail("ERR_JWT_EXPIRED", "The token has expired; expected an exp in the future.");
  }
  if (typeof claims.iat !== "number") {
    claimInvalid("The token has no iat claim; expected its issue time.");
  }
  if (claims.iat > now + tolerance) {
    fail(
      "ERR_JWT_NOT_YET_VALID",
      "The token was issued in the future; expected an iat in the past.",
    );
  }
  if (claims.nbf !== undefined && (claims.nbf as number) > now + tolerance) {
    fail("ERR_JWT_NOT_YET_VALID", "The token is not valid yet; expected an nbf in the past.");
  }
  if (claims.scope !== undefined && typeof claims.scope !== "string") {
    claimInvalid("The scope claim is not a string; expected space-separated scopes.");
  }
  return claims as AccessTokenClaims;
}
