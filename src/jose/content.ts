/**
 * JWE content encryption: AES-GCM and AES-CBC with HMAC-SHA2 (RFC 7518 section 5).
 * The AES-GCM functions stand alone, for the keys derived from a secret.
 *
 * @module
 */

import { type Bytes, concat, fail, join, randomBytes, subtle } from "./_common.ts";
import { CONTENT } from "./algorithms.ts";
import { timingSafeEqual } from "../crypto/timing_safe_equal.ts";
import type { JWEEncryption, WebCryptoKey } from "./types.ts";

/** A content encryption key: a CryptoKey (AES-GCM only) or raw bytes. */
export type ContentKey = WebCryptoKey | Bytes;

/** The output of content encryption. */
export interface SealedContent {
  iv: Bytes;
  ciphertext: Bytes;
  tag: Bytes;
}

export function decryptionFailed(): never {
  return fail(
    "ERR_JWE_DECRYPTION_FAILED",
    "The JWE did not decrypt; expected the right key and an untampered token.",
  );
}

function importGcm(cek: ContentKey, usage: KeyUsage): Promise<CryptoKey> | CryptoKey {
  return cek instanceof Uint8Array ? subtle.importKey("raw", cek, "AES-GCM", false, [usage]) : cek;
}

function splitCbcKey(enc: JWEEncryption, cek: ContentKey, usage: KeyUsage) {
  if (!(cek instanceof Uint8Array)) {
    throw new TypeError("CBC-HS content keys are bytes.");
  }
  const spec = CONTENT[enc];
  const half = spec.keyBytes >> 1;
  return Promise.all([
    subtle.importKey("raw", cek.subarray(0, half), { name: "HMAC", hash: spec.hash }, false, [
      "sign",
    ]),
    subtle.importKey("raw", cek.subarray(half), "AES-CBC", false, [usage]),
  ]);
}

/** The MAC input of RFC 7518 5.2.2.1: AAD || IV || ciphertext || AL (AAD length in bits, 64-bit big-endian). */
function macInput(aad: Bytes, iv: Bytes, ciphertext: Bytes): Bytes {
  const al = new Uint8Array(8);
  const bits = aad.length * 8;
  new DataView(al.buffer).setUint32(0, Math.floor(bits / 0x100000000));
  new DataView(al.buffer).setUint32(4, bits >>> 0);
  return concat(aad, iv, ciphertext, al);
}

/** The two arrays as one view when the second directly follows the first in one buffer. */
function adjacent(first: Bytes, second: Bytes): Bytes | undefined {
  return first.buffer === second.buffer &&
      first.byteOffset + first.byteLength === second.byteOffset
    ? new Uint8Array(first.buffer, first.byteOffset, first.byteLength + second.byteLength)
    : undefined;
}

/** Bytes of an AES-GCM IV and tag, for every key size (RFC 7518 5.3). */
const GCM_IV_BYTES = 12;
const GCM_TAG_BYTES = 16;

/**
 * AES-GCM content encryption (A128GCM, A192GCM, A256GCM: the key decides).
 * `iv` is for known-answer tests only; a fresh random IV is used otherwise.
 */
export async function encryptGcm(
  cek: ContentKey,
  plaintext: Uint8Array,
  aad: Bytes,
  iv?: Bytes,
): Promise<SealedContent> {
  const nonce = iv ?? randomBytes(GCM_IV_BYTES);
  const sealed = new Uint8Array(
    await subtle.encrypt(
      { name: "AES-GCM", iv: nonce, additionalData: aad, tagLength: 128 },
      cek instanceof Uint8Array ? await importGcm(cek, "encrypt") : cek,
      plaintext as Bytes,
    ),
  );
  const split = sealed.length - GCM_TAG_BYTES;
  return { iv: nonce, ciphertext: sealed.subarray(0, split), tag: sealed.subarray(split) };
}

/** AES-GCM content decryption; any failure is `ERR_JWE_DECRYPTION_FAILED`. */
export async function decryptGcm(
  cek: ContentKey,
  parts: SealedContent,
  aad: Bytes,
): Promise<Bytes> {
  const { iv, ciphertext, tag } = parts;
  if (iv.length !== GCM_IV_BYTES || tag.length !== GCM_TAG_BYTES) decryptionFailed();
  try {
    return new Uint8Array(
      await subtle.decrypt(
        { name: "AES-GCM", iv, additionalData: aad, tagLength: 128 },
        cek instanceof Uint8Array ? await importGcm(cek, "decrypt") : cek,
        adjacent(ciphertext, tag) ?? join(ciphertext, tag),
      ),
    );
  } catch {
    return decryptionFailed();
  }
}

/**
 * Encrypts `plaintext` with authenticated data `aad`. `iv` is for
 * known-answer tests only; a fresh random IV is used otherwise.
 */
export async function encryptContent(
  enc: JWEEncryption,
  cek: ContentKey,
  plaintext: Uint8Array,
  aad: Bytes,
  iv?: Bytes,
): Promise<SealedContent> {
  const spec = CONTENT[enc];
  if (spec.gcm) return await encryptGcm(cek, plaintext, aad, iv);
  const nonce = iv ?? randomBytes(spec.ivBytes);
  const [macKey, encKey] = await splitCbcKey(enc, cek, "encrypt");
  const ciphertext = new Uint8Array(
    await subtle.encrypt({ name: "AES-CBC", iv: nonce }, encKey, plaintext as Bytes),
  );
  const mac = await subtle.sign("HMAC", macKey, macInput(aad, nonce, ciphertext));
  return { iv: nonce, ciphertext, tag: new Uint8Array(mac, 0, spec.tagBytes) };
}

/** Decrypts and authenticates; any failure is `ERR_JWE_DECRYPTION_FAILED`. */
export async function decryptContent(
  enc: JWEEncryption,
  cek: ContentKey,
  parts: SealedContent,
  aad: Bytes,
): Promise<Bytes> {
  const spec = CONTENT[enc];
  if (spec.gcm) return await decryptGcm(cek, parts, aad);
  const { iv, ciphertext, tag } = parts;
  if (iv.length !== spec.ivBytes || tag.length !== spec.tagBytes) decryptionFailed();
  let plaintext: ArrayBuffer;
  try {
    const [macKey, encKey] = await splitCbcKey(enc, cek, "decrypt");
    const mac = new Uint8Array(
      await subtle.sign("HMAC", macKey, macInput(aad, iv, ciphertext)),
      0,
      spec.tagBytes,
    );
    // The tag is checked before any decryption, in constant time.
    if (!timingSafeEqual(mac, tag)) return decryptionFailed();
    plaintext = await subtle.decrypt({ name: "AES-CBC", iv }, encKey, ciphertext);
  } catch {
    return decryptionFailed();
  }
  return new Uint8Array(plaintext);
}
