/**
 * Public types shared across the module.
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

/** The RFC 6749 error body: `{ error, error_description }`. */
export interface ErrorBody {
  /** The error code. */
  error: ErrorType;
  /** A human-readable description, safe to show. */
  error_description?: string;
}
