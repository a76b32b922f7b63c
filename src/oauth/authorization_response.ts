/**
 * The authorization response (RFC 6749 section 4.1.2, RFC 9207): `state`
 * first, then `iss`, and only then an `error` or the `code`.
 *
 * @module
 */

import { AuthError } from "../errors.ts";
import { singleParam } from "../http.ts";
import { timingSafeEqual } from "../crypto/timing_safe_equal.ts";
import { isAuthorizationErrorCode } from "../types.ts";

/** What the response must match. */
export interface ExpectedResponse {
  /** The `state` this flow sent. */
  state: string;
  /** The provider's issuer, when configured: an `iss` parameter must equal it. */
  issuer?: string;
  /**
   * The provider says it sends `iss` (its metadata has
   * `authorization_response_iss_parameter_supported: true`): a response
   * without one is refused (RFC 9207 section 2.4).
   */
  requireIss?: boolean;
}

function required(params: URLSearchParams, name: string): string {
  const value = singleParam(params, name);
  if (value === null || value === "") {
    throw new AuthError(
      "invalid_request",
      `The callback has no "${name}" parameter; expected the provider to send it.`,
    );
  }
  return value;
}

/**
 * Checks the response parameters and returns the authorization code.
 * `state` is compared in constant time; an `error` counts only once `state`
 * and `iss` prove the response answers this flow.
 */
export function validateAuthorizationResponse(
  params: URLSearchParams,
  expected: ExpectedResponse,
): string {
  if (!timingSafeEqual(required(params, "state"), expected.state)) {
    throw new AuthError(
      "invalid_request",
      "The state parameter does not match this sign-in; expected the state it was sent.",
    );
  }
  if (params.getAll("iss").length > 1) {
    throw new AuthError("invalid_request", "The iss parameter is repeated; expected it once.");
  }
  const iss = singleParam(params, "iss");
  if (iss === null && expected.requireIss === true) {
    throw new AuthError(
      "invalid_request",
      "The callback has no iss parameter although the provider sends one; expected its issuer.",
    );
  }
  if (iss !== null && expected.issuer !== undefined && iss !== expected.issuer) {
    throw new AuthError(
      "invalid_request",
      "The iss parameter does not match the provider; expected its configured issuer.",
    );
  }
  const error = singleParam(params, "error");
  if (error !== null) {
    const code = isAuthorizationErrorCode(error) ? error : "server_error";
    throw new AuthError(
      code,
      code === "access_denied"
        ? "The provider denied the sign-in."
        : "The provider refused the sign-in.",
    );
  }
  return required(params, "code");
}
