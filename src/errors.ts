/**
 * `AuthError` and the mapping from errors to RFC 6749 error responses.
 *
 * @module
 */

import type { ErrorBody, ErrorType } from "./types.ts";

const DEFAULT_STATUS: Readonly<Record<ErrorType, number>> = {
  invalid_request: 400,
  unauthorized_client: 400,
  access_denied: 401,
  unsupported_response_type: 400,
  invalid_scope: 400,
  server_error: 500,
  temporarily_unavailable: 503,
  invalid_client: 401,
  invalid_grant: 400,
  unsupported_grant_type: 400,
  invalid_session_token: 401,
  invalid_csrf_token: 403,
  invalid_redirect_to: 400,
};

/** Options for {@link AuthError}. */
export interface AuthErrorOptions {
  /** HTTP status of the response; defaults to the usual status for the code. */
  status?: number;
  /** The underlying cause, logged but never sent to the client. */
  cause?: unknown;
}

/**
 * An error with an RFC 6749 code, a description safe to show, and an HTTP
 * status. Throw it from `credentials.authorize` or `signUp.onCreateUser` to
 * choose the response; any other thrown error becomes a 500 `server_error`
 * with no detail in the body.
 *
 * @example
 * ```ts
 * import { AuthError } from "@service-stack/auth";
 *
 * function onCreateUser(payload: Record<string, unknown>) {
 *   if (payload.username === "taken") {
 *     throw new AuthError("invalid_request", "That username is taken.", { status: 409 });
 *   }
 *   return { sub: crypto.randomUUID(), name: String(payload.username) };
 * }
 * ```
 */
export class AuthError extends Error {
  /** The RFC 6749 (or module) error code. */
  readonly code: ErrorType;
  /** A description that is safe to send to the client. */
  readonly description: string;
  /** The HTTP status of the response. */
  readonly status: number;

  /** Creates an error from a code, a client-safe description and options. */
  constructor(code: ErrorType, description: string, options: AuthErrorOptions = {}) {
    super(description, options.cause === undefined ? undefined : { cause: options.cause });
    if (!(code in DEFAULT_STATUS)) {
      throw new TypeError(`Unknown error code "${code}": expected one of the ErrorType codes.`);
    }
    const status = options.status ?? DEFAULT_STATUS[code];
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new TypeError(`Invalid status ${status}: expected an HTTP error status (400-599).`);
    }
    this.name = "AuthError";
    this.code = code;
    this.description = description;
    this.status = status;
  }

  /** The RFC 6749 error body for this error. */
  toJSON(): ErrorBody {
    return { error: this.code, error_description: this.description };
  }
}

/**
 * The name of a thrown value, read defensively: a Proxy, a throwing `name`
 * getter or a non-string name gives `"Error"` or the value's type, never a
 * second exception.
 *
 * @example
 * ```ts
 * import { errorName } from "./errors.ts";
 * errorName(new TypeError("x")); // "TypeError"
 * errorName("oops"); // "string"
 * ```
 */
export function errorName(error: unknown): string {
  try {
    if (!(error instanceof Error)) return error === null ? "null" : typeof error;
    const name = error.name;
    return typeof name === "string" && /^[A-Za-z][\w.$-]{0,63}$/.test(name) ? name : "Error";
  } catch {
    return "Error";
  }
}

const CHOSEN_BY_APP: unique symbol = Symbol("chosenByApp");

/**
 * Marks an `AuthError` that application code threw (a hook, `authorize`, a
 * profile mapper): its description was written for the app's users, so pages
 * show it as it is, where the library's own descriptions (written for
 * developers) are replaced by a plain sentence.
 *
 * @example
 * ```ts
 * import { AuthError, isChosenByApp, markChosenByApp } from "./errors.ts";
 * const error = new AuthError("access_denied", "Your account is suspended.");
 * markChosenByApp(error);
 * isChosenByApp(error); // true
 * ```
 */
export function markChosenByApp(error: unknown): void {
  if (!(error instanceof AuthError) || !Object.isExtensible(error)) return;
  Object.defineProperty(error, CHOSEN_BY_APP, { value: true });
}

/** Whether {@link markChosenByApp} marked the error. */
export function isChosenByApp(error: AuthError): boolean {
  return (error as AuthError & { [CHOSEN_BY_APP]?: boolean })[CHOSEN_BY_APP] === true;
}

const PLAIN_TEXT: unique symbol = Symbol("plainText");

/**
 * Gives a library error the plain sentence a person reads on a page or in a
 * redirect's `error_description`, where the code and status alone would
 * pick a vaguer one (an unknown sign-in provider). Returns the error.
 *
 * @example
 * ```ts
 * import { AuthError, plainTextOf, withPlainText } from "./errors.ts";
 * const error = withPlainText(new AuthError("invalid_request", "x; expected y."), "Plain words.");
 * plainTextOf(error); // "Plain words."
 * ```
 */
export function withPlainText(error: AuthError, text: string): AuthError {
  Object.defineProperty(error, PLAIN_TEXT, { value: text });
  return error;
}

/** The sentence {@link withPlainText} gave the error, if any. */
export function plainTextOf(error: AuthError): string | undefined {
  return (error as AuthError & { [PLAIN_TEXT]?: string })[PLAIN_TEXT];
}

/** Where {@link toAuthError} reports what it turns into a `server_error`. */
export interface ErrorReporter {
  /** Logs one line; `details` never carries request values. */
  log(level: "error", message: string, details: { error: string }): void;
}

/**
 * The one error wrapper: an `AuthError` passes unchanged; anything else is
 * logged by its name only (messages may quote passwords, payloads or tokens)
 * as `"{what} threw"`, and becomes a 500 `server_error` with no detail.
 *
 * @example
 * ```ts
 * import { toAuthError } from "./errors.ts";
 * const logger = { log: () => {} };
 * toAuthError(new RangeError("boom"), logger, "profile mapper").code; // "server_error"
 * ```
 */
export function toAuthError(error: unknown, reporter: ErrorReporter, what: string): AuthError {
  if (error instanceof AuthError) return error;
  reporter.log("error", `${what} threw`, { error: errorName(error) });
  return new AuthError("server_error", "The server could not complete the request.");
}
