/**
 * Public types shared across the module, and the error codes as runtime
 * data (the one list every part checks codes against). Imports nothing, so
 * the browser client may use it.
 *
 * @module
 */

/** A signed-in user, as carried in the session. */
export interface User {
  /** Stable subject identifier from the provider or `authorize`. */
  sub: string;
  /** Display name. */
  name?: string;
  /** Email address. */
  email?: string;
  /** Avatar URL. */
  image?: string;
  /**
   * `true` when the library saw `email` proven: a provider address that
   * passed the verification rules, an email sign-in, a confirmed
   * verification or change link. Set by the library only; an `email`
   * changed any other way loses it.
   */
  emailVerified?: boolean;
}

/** The session returned to callers: the user and when the session ends. */
export interface Session<U extends User = User> {
  /** The signed-in user. */
  user: U;
  /** When the session expires, as an ISO 8601 UTC string. */
  expires: string;
}

/** RFC 6749 section 4.1.2.1 authorization error codes. */
export type AuthorizationErrorCode =
  | "invalid_request"
  | "unauthorized_client"
  | "access_denied"
  | "unsupported_response_type"
  | "invalid_scope"
  | "server_error"
  | "temporarily_unavailable";

/** RFC 6749 section 5.2 access token error codes. */
export type AccessTokenErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope";

/** The module's own token errors (named after RFC 7009 section 2.2.1 in the SPEC). */
export type TokenRevocationErrorCode =
  | "invalid_session_token"
  | "invalid_csrf_token"
  | "invalid_redirect_to";

/** Every error code this module answers with. */
export type ErrorType = AuthorizationErrorCode | AccessTokenErrorCode | TokenRevocationErrorCode;

const AUTHORIZATION_ERRORS: Readonly<Record<AuthorizationErrorCode, true>> = {
  invalid_request: true,
  unauthorized_client: true,
  access_denied: true,
  unsupported_response_type: true,
  invalid_scope: true,
  server_error: true,
  temporarily_unavailable: true,
};

const ACCESS_TOKEN_ERRORS: Readonly<Record<AccessTokenErrorCode, true>> = {
  invalid_request: true,
  invalid_client: true,
  invalid_grant: true,
  unauthorized_client: true,
  unsupported_grant_type: true,
  invalid_scope: true,
};

const TOKEN_REVOCATION_ERRORS: Readonly<Record<TokenRevocationErrorCode, true>> = {
  invalid_session_token: true,
  invalid_csrf_token: true,
  invalid_redirect_to: true,
};

/** Whether a value is an RFC 6749 section 4.1.2.1 authorization error code. */
export function isAuthorizationErrorCode(value: unknown): value is AuthorizationErrorCode {
  return typeof value === "string" && Object.hasOwn(AUTHORIZATION_ERRORS, value);
}

/** Whether a value is an RFC 6749 section 5.2 access token error code. */
export function isAccessTokenErrorCode(value: unknown): value is AccessTokenErrorCode {
  return typeof value === "string" && Object.hasOwn(ACCESS_TOKEN_ERRORS, value);
}

/** Whether a value is any `ErrorType` code. */
export function isErrorType(value: unknown): value is ErrorType {
  return isAuthorizationErrorCode(value) || isAccessTokenErrorCode(value) ||
    (typeof value === "string" && Object.hasOwn(TOKEN_REVOCATION_ERRORS, value));
}

/** The RFC 6749 error body: `{ error, error_description }`. */
export interface ErrorBody {
  /** The error code. */
  error: ErrorType;
  /** A human-readable description, safe to show. */
  error_description?: string;
}
