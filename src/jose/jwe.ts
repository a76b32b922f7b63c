/**
 * JWE compact serialization (RFC 7516) on Web Crypto.
 *
 * @module
 */

import {
  algorithmNotAllowed,
  type Bytes,
  checkMediaType,
  decode,
  encodeJson,
  encoder,
  fail,
  keyInvalid,
  parseHeader,
  rejectCrit,
  splitCompact,
} from "./_common.ts";
import {
  JWE_ALGORITHMS,
  JWE_ENCRYPTIONS,
  jweProfileForBytes,
  jweProfileForKey,
} from "./algorithms.ts";
import { decodeBase64UrlInto, decodedBase64UrlLength, encodeBase64Url } from "./base64url.ts";
import {
  type ContentKey,
  decryptContent,
  decryptGcm,
  encryptContent,
  encryptGcm,
  type SealedContent,
} from "./content.ts";
import {
  checkEncryptedKeySegment,
  checkJWEKeyUsage,
  type ContentKeyResult,
  createContentKey,
  type JWEKey,
  keyFits,
  recoverContentKey,
} from "./key_management.ts";
import type {
  DecryptedJWE,
  DecryptJWEOptions,
  JWEAlgorithm,
  JWEEncryption,
  JWEHeader,
  WebCryptoKey,
} from "./types.ts";

const EMPTY: Bytes = new Uint8Array(0);

/** A protected header encoded once: its segment and the AAD bytes of that segment. */
export interface EncodedHeader {
  segment: string;
  aad: Bytes;
  header: JWEHeader;
}

/** Encodes a JWE header whose content does not vary per message (anything but ECDH-ES). */
export function encodeJWEHeader(header: JWEHeader): EncodedHeader {
  const segment = encodeJson(header);
  return { segment, aad: encoder.encode(segment), header };
}

/**
 * The algorithms one JWE operation can run: {@link EVERY_ALGORITHM}, or
 * {@link DIRECT_A256GCM} for the keys derived from a secret, which then
 * bring none of the key management code.
 */
export interface JWESuite {
  /** Whether `key` can serve `alg` with `enc` at all (type, size, curve). */
  keyFits(key: JWEKey, alg: JWEAlgorithm, enc: JWEEncryption): boolean;
  /** Checks that the encrypted key segment is empty exactly for the direct algorithms. */
  checkEncryptedKey(alg: JWEAlgorithm, encryptedKey: Uint8Array): void;
  /** The content key of a new message and what carries it (never called for `dir`). */
  createContentKey(
    alg: JWEAlgorithm,
    enc: JWEEncryption,
    key: JWEKey,
    header: { apu?: unknown; apv?: unknown },
    fixedCek?: Bytes,
  ): Promise<ContentKeyResult>;
  /** The content key of a message (never called for `dir`). */
  recoverContentKey(
    alg: JWEAlgorithm,
    enc: JWEEncryption,
    key: JWEKey,
    encryptedKey: Bytes,
    header: Record<string, unknown>,
  ): Promise<ContentKey>;
  /** Content encryption; `iv` for known-answer tests only. */
  encryptContent(
    enc: JWEEncryption,
    cek: ContentKey,
    plaintext: Uint8Array,
    aad: Bytes,
    iv?: Bytes,
  ): Promise<SealedContent>;
  /** Content decryption; any failure is `ERR_JWE_DECRYPTION_FAILED`. */
  decryptContent(
    enc: JWEEncryption,
    cek: ContentKey,
    parts: SealedContent,
    aad: Bytes,
  ): Promise<Bytes>;
}

/** Every supported key management and content encryption algorithm. */
export const EVERY_ALGORITHM: JWESuite = {
  keyFits,
  checkEncryptedKey: checkEncryptedKeySegment,
  createContentKey,
  recoverContentKey,
  encryptContent,
  decryptContent,
};

/**
 * `dir` with A256GCM, the only algorithms of the keys derived from a secret
 * (their headers are pinned to them before any of these runs).
 */
export const DIRECT_A256GCM: JWESuite = {
  keyFits: (key, alg, enc) =>
    alg === "dir" && enc === "A256GCM" && !(key instanceof Uint8Array) &&
    key.algorithm.name === "AES-GCM" && (key.algorithm as AesKeyAlgorithm).length === 256,
  checkEncryptedKey(alg, encryptedKey) {
    if (alg !== "dir") algorithmNotAllowed("alg", alg);
    if (encryptedKey.length !== 0) {
      fail("ERR_JOSE_INVALID", "The encrypted key segment is not empty; expected none with dir.");
    }
  },
  createContentKey: (alg) => algorithmNotAllowed("alg", alg),
  recoverContentKey: (alg) => algorithmNotAllowed("alg", alg),
  encryptContent: (_enc, cek, plaintext, aad, iv) => encryptGcm(cek, plaintext, aad, iv),
  decryptContent: (_enc, cek, parts, aad) => decryptGcm(cek, parts, aad),
};

/** Fixed CEK and IV, for known-answer tests only. */
export interface FixedRandomness {
  cek?: Bytes;
  iv?: Bytes;
}

/** Encrypts with a key already checked; `encoded`, when given, is the header pre-encoded. */
export function encryptWithKey(
  key: JWEKey,
  header: JWEHeader,
  plaintext: Uint8Array,
  encoded?: EncodedHeader,
  fixed?: FixedRandomness,
): Promise<string> {
  return encryptWith(EVERY_ALGORITHM, key, header, plaintext, encoded, fixed);
}

/** {@link encryptWithKey} with the algorithms of `suite` only. */
export async function encryptWith(
  suite: JWESuite,
  key: JWEKey,
  header: JWEHeader,
  plaintext: Uint8Array,
  encoded?: EncodedHeader,
  fixed?: FixedRandomness,
): Promise<string> {
  const { alg, enc } = header;
  // `dir` needs no Web Crypto call to get its content key.
  const { cek, encryptedKey, epk } = alg === "dir"
    ? { cek: key, encryptedKey: EMPTY, epk: undefined }
    : await suite.createContentKey(alg, enc, key, header, fixed?.cek);
  // The ephemeral key is part of the protected header, so it is encoded per message.
  const { segment, aad } = epk
    ? encodeJWEHeader({ ...header, epk })
    : encoded ?? encodeJWEHeader(header);
  const { iv, ciphertext, tag } = await suite.encryptContent(enc, cek, plaintext, aad, fixed?.iv);
  return `${segment}.${encodeBase64Url(encryptedKey)}.${encodeBase64Url(iv)}.${
    encodeBase64Url(ciphertext)
  }.${encodeBase64Url(tag)}`;
}

/** What a JWE header must satisfy. */
export interface JWEExpectation {
  algorithms: readonly JWEAlgorithm[];
  encryptionAlgorithms: readonly JWEEncryption[];
  /** Required `typ`; undefined: any. */
  typ?: string;
  /** Whether a header without `typ` passes too (the outer JWE of a nested JWT, RFC 7519 A.2). */
  typMayBeAbsent?: boolean;
  /** Required `cty`; undefined: any; null: none. */
  cty?: string | null;
  /** A header this library made: when the token's segment equals it, parsing is skipped. */
  knownHeader?: EncodedHeader;
  /** The token's header, already parsed by the caller (to read its `kid`); checked here all the same. */
  parsedHeader?: Record<string, unknown>;
}

/** Validates a parsed JWE header against what the key and caller allow. */
function checkHeader(
  parsed: Record<string, unknown>,
  key: JWEKey,
  expect: JWEExpectation,
  suite: JWESuite,
): JWEHeader {
  rejectCrit(parsed);
  // Compression is refused outright: decompression bombs (RFC 8725 3.6).
  if (parsed.zip !== undefined) {
    fail("ERR_JOSE_UNSUPPORTED_HEADER", "The header carries zip; expected no compression.");
  }
  const alg = parsed.alg as JWEAlgorithm;
  const enc = parsed.enc as JWEEncryption;
  if (!expect.algorithms.includes(alg)) algorithmNotAllowed("alg", alg);
  if (!expect.encryptionAlgorithms.includes(enc)) algorithmNotAllowed("enc", enc);
  if (!suite.keyFits(key, alg, enc)) algorithmNotAllowed("alg", alg);
  if (!(expect.typMayBeAbsent && parsed.typ === undefined)) {
    checkMediaType(parsed, "typ", expect.typ);
  }
  checkMediaType(parsed, "cty", expect.cty);
  return parsed as JWEHeader;
}

/**
 * The IV, ciphertext and tag, decoded into one buffer (views into it): one
 * allocation instead of four, the ciphertext and tag already adjacent as
 * AES-GCM wants them.
 */
function decodeSealedParts(iv: string, ciphertext: string, tag: string): SealedContent {
  const ivLength = decodedBase64UrlLength(iv);
  const tagStart = ivLength + decodedBase64UrlLength(ciphertext);
  const bytes = new Uint8Array(tagStart + decodedBase64UrlLength(tag));
  decodeBase64UrlInto(iv, bytes, 0);
  decodeBase64UrlInto(ciphertext, bytes, ivLength);
  decodeBase64UrlInto(tag, bytes, tagStart);
  return {
    iv: bytes.subarray(0, ivLength),
    ciphertext: bytes.subarray(ivLength, tagStart),
    tag: bytes.subarray(tagStart),
  };
}

/** Decrypts with a key already checked for decryption. */
export function decryptWithKey(
  key: JWEKey,
  token: string,
  expect: JWEExpectation,
): Promise<DecryptedJWE & { plaintext: Bytes }> {
  return decryptWith(EVERY_ALGORITHM, key, token, expect);
}

/** {@link decryptWithKey} with the algorithms of `suite` only. */
export async function decryptWith(
  suite: JWESuite,
  key: JWEKey,
  token: string,
  expect: JWEExpectation,
): Promise<DecryptedJWE & { plaintext: Bytes }> {
  const [headerSegment, keySegment, ivSegment, ciphertextSegment, tagSegment] = splitCompact(
    token,
    5,
  );
  let header: JWEHeader;
  let aad: Bytes;
  if (expect.knownHeader && headerSegment === expect.knownHeader.segment) {
    header = expect.knownHeader.header;
    aad = expect.knownHeader.aad;
  } else {
    header = checkHeader(expect.parsedHeader ?? parseHeader(headerSegment), key, expect, suite);
    aad = encoder.encode(headerSegment);
  }
  const encryptedKey = keySegment === "" ? EMPTY : decode(keySegment);
  const parts = decodeSealedParts(ivSegment, ciphertextSegment, tagSegment);
  suite.checkEncryptedKey(header.alg, encryptedKey);
  const cek = header.alg === "dir"
    ? key
    : await suite.recoverContentKey(header.alg, header.enc, key, encryptedKey, header);
  const plaintext = await suite.decryptContent(header.enc, cek, parts, aad);
  return { plaintext, header };
}

function checkOutgoingHeader(header: JWEHeader, key: JWEKey): void {
  if (typeof header !== "object" || header === null) {
    keyInvalid("The JWE header is not an object; expected { alg, enc, ... }.");
  }
  if (!JWE_ALGORITHMS.includes(header.alg)) {
    fail(
      "ERR_JOSE_ALG_NOT_ALLOWED",
      `The alg ${JSON.stringify(header.alg)} is not supported; expected one of ${
        JWE_ALGORITHMS.join(", ")
      }.`,
    );
  }
  if (!JWE_ENCRYPTIONS.includes(header.enc)) {
    fail(
      "ERR_JOSE_ALG_NOT_ALLOWED",
      `The enc ${JSON.stringify(header.enc)} is not supported; expected one of ${
        JWE_ENCRYPTIONS.join(", ")
      }.`,
    );
  }
  if (header.crit !== undefined || header.zip !== undefined || header.epk !== undefined) {
    fail(
      "ERR_JOSE_UNSUPPORTED_HEADER",
      "The JWE header carries crit, zip or epk; expected none of them (epk is set by the library).",
    );
  }
  checkJWEKeyUsage(key, "encrypt");
  // Rejects keys no algorithm may use (RSA-OAEP with SHA-1, small moduli, other curves).
  if (!(key instanceof Uint8Array)) jweProfileForKey(key);
  if (!keyFits(key, header.alg, header.enc)) {
    keyInvalid(
      `The key does not fit alg ${header.alg} with enc ${header.enc}; expected a key of that type and size.`,
    );
  }
}

/**
 * Encrypts a plaintext into a JWE compact serialization (RFC 7516 section 7.1).
 *
 * Supported `alg`: `dir` (AES-GCM CryptoKey, or the raw CEK bytes, which
 * CBC-HS needs), `A128KW`/`A256KW` (AES-KW CryptoKey or 16/32 bytes),
 * `RSA-OAEP-256` (RSA-OAEP SHA-256 public key), `ECDH-ES`, `ECDH-ES+A128KW`,
 * `ECDH-ES+A256KW` (ECDH P-256/384/521 public key). Supported `enc`:
 * `A128GCM`, `A192GCM`, `A256GCM`, `A128CBC-HS256`, `A192CBC-HS384`,
 * `A256CBC-HS512`. `zip` and `crit` are refused; `epk` is added for ECDH-ES.
 *
 * @param plaintext The bytes (or UTF-8 text) to encrypt.
 * @param key The recipient's key.
 * @param header The protected header; `alg` and `enc` are required.
 * @returns The compact JWE.
 * @throws {JoseError} `ERR_JOSE_KEY_INVALID` when the key does not fit `alg`/`enc`.
 *
 * @example
 * ```ts
 * import { encryptCompactJWE } from "@service-stack/auth/jose";
 * const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
 *   "encrypt",
 *   "decrypt",
 * ]);
 * const jwe = await encryptCompactJWE("secret text", key, { alg: "dir", enc: "A256GCM" });
 * ```
 */
export function encryptCompactJWE(
  plaintext: Uint8Array | string,
  key: WebCryptoKey | Uint8Array,
  header: JWEHeader,
): Promise<string> {
  try {
    checkOutgoingHeader(header, key as JWEKey);
    const bytes = typeof plaintext === "string" ? encoder.encode(plaintext) : plaintext;
    return encryptWithKey(key as JWEKey, { ...header }, bytes);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Decrypts a JWE compact serialization and returns its plaintext and header.
 *
 * The accepted `alg`/`enc` are those the key allows, narrowed by `options`
 * (a byte key needs `options.algorithms`). Refused before any crypto:
 * algorithms outside that set (`PBES2-*` and `RSA1_5` are never supported),
 * `zip`, `crit`, a wrong `typ` or `cty`, malformed segments, tokens over
 * 16 KiB. A wrong key or any tampering gives `ERR_JWE_DECRYPTION_FAILED`.
 *
 * @param token The compact JWE.
 * @param key The recipient's key (the private key for RSA-OAEP-256 and ECDH-ES).
 * @param options Accepted algorithms, required `typ` and `cty`.
 * @returns The plaintext bytes and the protected header.
 *
 * @example
 * ```ts
 * import { decryptCompactJWE, encryptCompactJWE } from "@service-stack/auth/jose";
 * const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
 *   "encrypt",
 *   "decrypt",
 * ]);
 * const jwe = await encryptCompactJWE("secret text", key, { alg: "dir", enc: "A256GCM" });
 * const { plaintext } = await decryptCompactJWE(jwe, key);
 * new TextDecoder().decode(plaintext); // "secret text"
 * ```
 */
export async function decryptCompactJWE(
  token: string,
  key: WebCryptoKey | Uint8Array,
  options: DecryptJWEOptions = {},
): Promise<DecryptedJWE> {
  checkJWEKeyUsage(key as JWEKey, "decrypt");
  if (key instanceof Uint8Array && options.algorithms === undefined) {
    keyInvalid("A byte key allows several algorithms; expected options.algorithms to pin them.");
  }
  const profile = key instanceof Uint8Array
    ? jweProfileForBytes(key.length)
    : jweProfileForKey(key);
  return await decryptWithKey(key as JWEKey, token, {
    algorithms: options.algorithms ?? profile.algorithms,
    encryptionAlgorithms: options.encryptionAlgorithms ?? profile.encryptionAlgorithms,
    typ: options.typ,
    cty: options.cty,
  });
}
