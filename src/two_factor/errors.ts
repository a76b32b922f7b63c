/**
 * `TwoFactorError`: why a stored factor or a pending second step was refused.
 *
 * @module
 */

/** Stable codes carried by {@link TwoFactorError}. */
export type TwoFactorErrorCode =
  /** The stored factor was not sealed by this library with this key, or for another user. */
  | "ERR_TWO_FACTOR_FACTOR_INVALID"
  /** The pending value (cookie) was not sealed by this library with this key, or is malformed. */
  | "ERR_TWO_FACTOR_PENDING_INVALID"
  /** The pending value's five minutes are over. */
  | "ERR_TWO_FACTOR_PENDING_EXPIRED";

/**
 * A refused two-factor value. The caller treats it as "no sign-in": a
 * factor that cannot be opened never means "two-factor off".
 *
 * @example
 * ```ts
 * import { TwoFactorError } from "./errors.ts";
 * const error = new TwoFactorError("ERR_TWO_FACTOR_PENDING_EXPIRED", "The sign-in expired.");
 * error.code; // "ERR_TWO_FACTOR_PENDING_EXPIRED"
 * ```
 */
export class TwoFactorError extends Error {
  /** The stable error code. */
  readonly code: TwoFactorErrorCode;

  /** Creates an error with a stable code, a one-sentence message and an optional cause. */
  constructor(code: TwoFactorErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TwoFactorError";
    this.code = code;
  }
}
