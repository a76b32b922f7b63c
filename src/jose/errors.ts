/**
 * Typed JOSE errors with stable codes.
 *
 * @module
 */

/** Stable codes carried by {@link JoseError}. */
export type JoseErrorCode =
  /** Malformed input: bad base64url, bad JSON, wrong segment count. */
  | "ERR_JOSE_INVALID"
  /** The token is larger than the 16 KiB limit. */
  | "ERR_JOSE_TOO_LARGE"
  /** The header's `alg` or `enc` is not one the key allows (includes `none`). */
  | "ERR_JOSE_ALG_NOT_ALLOWED"
  /** The header carries a `crit` parameter, or another unsupported parameter such as `zip`. */
  | "ERR_JOSE_UNSUPPORTED_HEADER"
  /** The header's `typ` or `cty` is not the expected one. */
  | "ERR_JOSE_TYP_MISMATCH"
  /** A JWS signature did not verify. */
  | "ERR_JWS_SIGNATURE_INVALID"
  /** A JWE did not decrypt (wrong key, tampered ciphertext, tag, IV or header). */
  | "ERR_JWE_DECRYPTION_FAILED"
  /** The JWT's `exp` is in the past (beyond the clock tolerance). */
  | "ERR_JWT_EXPIRED"
  /** The JWT's `nbf` is in the future (beyond the clock tolerance). */
  | "ERR_JWT_NOT_YET_VALID"
  /** A JWT claim is malformed or does not match (`iss`, `aud`, claim types). */
  | "ERR_JWT_CLAIM_INVALID"
  /** The key is unusable: too short, wrong type, or wrong usage for the operation. */
  | "ERR_JOSE_KEY_INVALID"
  /** The header's `kid` names none of the keys (for example a key retired from the list). */
  | "ERR_JOSE_KID_UNKNOWN";

/**
 * An error from the JOSE layer. The `code` is stable; the message is for people.
 *
 * @example
 * ```ts
 * import { JoseError } from "@service-stack/auth/jose";
 * try {
 *   throw new JoseError("ERR_JWT_EXPIRED", "The token has expired.");
 * } catch (error) {
 *   if (error instanceof JoseError && error.code === "ERR_JWT_EXPIRED") {
 *     // ask the user to sign in again
 *   }
 * }
 * ```
 */
export class JoseError extends Error {
  /** The stable error code. */
  readonly code: JoseErrorCode;

  /** Creates an error with a stable code and a one-sentence message. */
  constructor(code: JoseErrorCode, message: string) {
    super(message);
    this.name = "JoseError";
    this.code = code;
  }
}
