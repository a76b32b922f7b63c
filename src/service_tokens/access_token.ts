/**
 * Access tokens for other services, in the RFC 9068 shape: a compact JWS
 * signed with the service's current key pair, header `{ alg, typ:
 * "at+jwt", kid }`, claims `iss`, `sub`, `aud`, `scope` (when any),
 * `client_id`, `iat`, `exp` and `jti`. The options are validated here;
 * whoever calls decides the subject.
 *
 * @module
 */

import { encodeJson, encoder, randomBytes } from "../jose/_common.ts";
import { encodeBase64Url } from "../jose/base64url.ts";
import { signWithSegment } from "../jose/jws.ts";
import type { SigningKey } from "./signing_keys.ts";

/** Default lifetime of an access token, in seconds: 5 minutes. */
export const DEFAULT_ACCESS_TOKEN_SECONDS = 300;
/** Longest lifetime of an access token, in seconds: 1 hour. */
export const MAX_ACCESS_TOKEN_SECONDS = 3600;
const MAX_AUDIENCES = 16;
const MAX_TEXT = 256;
// A scope token (RFC 6749 3.3): printable ASCII but space, '"' and '\'.
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** The options of `api.issueAccessToken`. */
export interface AccessTokenOptions {
  /** The service (or services) the token is for: its `aud`. */
  audience: string | readonly string[];
  /** The scopes granted: a space-separated string or an array (joined with spaces). */
  scope?: string | readonly string[];
  /** Lifetime in seconds, an integer from 1 to 3,600; default 300. */
  expiresIn?: number;
}

/** Validated options: what goes into the claims. */
export interface CheckedAccessTokenOptions {
  readonly audience: string | readonly string[];
  readonly scope?: string;
  readonly expiresIn: number;
}

function isText(value: unknown): value is string {
  return typeof value === "string" && value !== "" && value.length <= MAX_TEXT;
}

/** Checks `api.issueAccessToken`'s options; throws a `TypeError` naming the fix. */
export function checkAccessTokenOptions(options: unknown): CheckedAccessTokenOptions {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(
      'options is not an object; expected { audience, scope?, expiresIn? }, e.g. { audience: "https://api.example.com" }.',
    );
  }
  const { audience, scope, expiresIn } = options as Record<string, unknown>;
  let aud: string | readonly string[];
  if (isText(audience)) aud = audience;
  else if (
    Array.isArray(audience) && audience.length > 0 && audience.length <= MAX_AUDIENCES &&
    audience.every(isText)
  ) aud = audience.length === 1 ? audience[0] : Object.freeze([...audience]);
  else {
    throw new TypeError(
      `audience is invalid; expected a string of 1 to ${MAX_TEXT} characters or an array of 1 to ${MAX_AUDIENCES} of them.`,
    );
  }
  let scopeText: string | undefined;
  if (scope !== undefined) {
    const parts = typeof scope === "string"
      ? scope.split(" ").filter((part) => part !== "")
      : Array.isArray(scope)
      ? scope
      : null;
    if (
      parts === null || parts.length > 64 ||
      !parts.every((part) =>
        typeof part === "string" && part.length <= 128 && SCOPE_TOKEN.test(part)
      )
    ) {
      throw new TypeError(
        'scope is invalid; expected a space-separated string or an array of scope tokens, e.g. "read write".',
      );
    }
    if (parts.length > 0) scopeText = parts.join(" ");
  }
  const seconds = expiresIn ?? DEFAULT_ACCESS_TOKEN_SECONDS;
  if (
    typeof seconds !== "number" || !Number.isInteger(seconds) || seconds < 1 ||
    seconds > MAX_ACCESS_TOKEN_SECONDS
  ) {
    throw new TypeError(
      `expiresIn is invalid; expected an integer number of seconds from 1 to ${MAX_ACCESS_TOKEN_SECONDS}.`,
    );
  }
  return { audience: aud, scope: scopeText, expiresIn: seconds };
}

/** What an access token says besides the options. */
export interface AccessTokenSubject {
  /** The issuer: the service's configured origin, never a request's `Host`. */
  readonly issuer: string;
  /** RFC 9068 `client_id`. */
  readonly clientId: string;
  /** The user. */
  readonly sub: string;
  /** Now, in seconds since the epoch. */
  readonly now: number;
}

/** Signs an access token with `key` (the current token key). */
export async function signAccessToken(
  key: SigningKey,
  subject: AccessTokenSubject,
  options: CheckedAccessTokenOptions,
): Promise<string> {
  const claims: Record<string, unknown> = {
    iss: subject.issuer,
    sub: subject.sub,
    aud: options.audience,
  };
  if (options.scope !== undefined) claims.scope = options.scope;
  claims.client_id = subject.clientId;
  claims.iat = subject.now;
  claims.exp = subject.now + options.expiresIn;
  claims.jti = encodeBase64Url(randomBytes(16));
  const header = encodeJson({ alg: key.alg, typ: "at+jwt", kid: key.kid });
  return await signWithSegment(key.signer!, header, encoder.encode(JSON.stringify(claims)));
}
