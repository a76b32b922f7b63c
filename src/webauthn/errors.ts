/**
 * The one error type of the WebAuthn core, with a stable reason code for logs.
 *
 * @module
 */

/** Stable reason codes carried by {@link WebAuthnError}; safe to log (they never carry key or signature bytes). */
export type WebAuthnReason =
  // CBOR (RFC 8949), decoded strictly.
  | "cbor_truncated"
  | "cbor_trailing_bytes"
  | "cbor_indefinite_length"
  | "cbor_non_minimal"
  | "cbor_too_deep"
  | "cbor_duplicate_key"
  | "cbor_invalid_utf8"
  | "cbor_integer_range"
  | "cbor_unsupported"
  // The response JSON (PublicKeyCredential.toJSON()).
  | "response_malformed"
  | "credential_type"
  // CollectedClientData.
  | "client_data_malformed"
  | "client_data_type"
  | "challenge"
  | "origin"
  | "cross_origin"
  | "top_origin"
  // Authenticator data and its flags.
  | "authenticator_data_malformed"
  | "rp_id_hash"
  | "user_present"
  | "user_verified"
  | "backup_flags"
  | "backup_eligibility"
  | "attested_credential_data"
  // The attestation object.
  | "attestation_object_malformed"
  | "attestation_format"
  | "attestation_statement"
  // Credential ids and owners.
  | "credential_id"
  | "credential_mismatch"
  | "user_handle"
  // COSE keys (RFC 9053) and stored keys.
  | "key_malformed"
  | "key_algorithm"
  | "key_mismatch"
  | "key_invalid"
  | "key_too_weak"
  // Signatures and counters.
  | "signature_malformed"
  | "signature"
  | "counter";

/**
 * A WebAuthn check that failed. `reason` is stable and meant for logs and
 * tests; the message is one sentence for a developer and never carries key,
 * signature or challenge bytes.
 *
 * @example
 * ```ts
 * import { WebAuthnError } from "./errors.ts";
 * try {
 *   throw new WebAuthnError("counter", "The signature counter did not increase; expected a value above the stored one.");
 * } catch (error) {
 *   if (error instanceof WebAuthnError && error.reason === "counter") {
 *     // log a possible cloned authenticator
 *   }
 * }
 * ```
 */
export class WebAuthnError extends Error {
  /** The stable reason code. */
  readonly reason: WebAuthnReason;

  /** Creates an error with a reason code and a one-sentence message. */
  constructor(reason: WebAuthnReason, message: string) {
    super(message);
    this.name = "WebAuthnError";
    this.reason = reason;
  }
}
