/**
 * ECDSA signatures as authenticators send them (DER, RFC 3279
 * `Ecdsa-Sig-Value`) converted to the fixed-size `r ‖ s` form Web Crypto
 * verifies (IEEE P1363).
 *
 * @module
 */

import { WebAuthnError } from "./errors.ts";

function malformed(): never {
  throw new WebAuthnError(
    "signature_malformed",
    "ECDSA signature is not a strict DER SEQUENCE of two positive INTEGERs; expected DER as WebAuthn specifies.",
  );
}

/** Reads one INTEGER at `pos` into `out` (right-aligned, `size` bytes); returns the next position. */
function readInteger(
  der: Uint8Array,
  pos: number,
  out: Uint8Array<ArrayBuffer>,
  at: number,
  size: number,
): number {
  if (pos + 2 > der.length || der[pos] !== 0x02) malformed();
  const length = der[pos + 1];
  // Short-form lengths only: an integer of `size` bytes plus a sign byte never needs more.
  if (length === 0 || length > size + 1 || pos + 2 + length > der.length) malformed();
  let start = pos + 2;
  const end = start + length;
  if (der[start] & 0x80) malformed(); // negative
  if (der[start] === 0) {
    // A leading zero only before a top bit set: also refuses zero, never a valid r or s.
    if (length === 1 || !(der[start + 1] & 0x80)) malformed();
    start++;
  }
  if (end - start > size) malformed();
  out.set(der.subarray(start, end), at + size - (end - start));
  return end;
}

/**
 * Converts a strict DER ECDSA signature to `r ‖ s` with each half `size`
 * bytes (32 for P-256). Refuses long-form or wrong lengths, extra leading
 * zeros, negative or zero integers, and trailing bytes.
 *
 * @throws {WebAuthnError} with reason `signature_malformed`.
 *
 * @example
 * ```ts
 * import { derToRawEcdsa } from "./der.ts";
 * const der = new Uint8Array([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]);
 * derToRawEcdsa(der, 32).length; // 64
 * ```
 */
export function derToRawEcdsa(der: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  // At most 72 bytes for P-256, so the one-byte (short-form) length is the only minimal one.
  if (der.length < 2 || der[0] !== 0x30 || der[1] !== der.length - 2) malformed();
  const raw = new Uint8Array(size * 2);
  const next = readInteger(der, 2, raw, 0, size);
  if (readInteger(der, next, raw, size, size) !== der.length) malformed();
  return raw;
}
