/**
 * JWE key management: `dir`, AES key wrap, RSA-OAEP-256 and ECDH-ES
 * (RFC 7518 section 4). Each turns a key into a content encryption key.
 *
 * @module
 */

import {
  type Bytes,
  concat,
  decode,
  encoder,
  fail,
  hasUsage,
  isCryptoKey,
  keyInvalid,
  randomBytes,
  subtle,
} from "./_common.ts";
import { CONTENT } from "./algorithms.ts";
import { type ContentKey, decryptionFailed } from "./content.ts";
import type { EphemeralPublicKey, JWEAlgorithm, JWEEncryption, WebCryptoKey } from "./types.ts";

/** A JWE key: a Web Crypto key, or raw bytes for `dir` and AES key wrap. */
export type JWEKey = WebCryptoKey | Bytes;

/** The content key and what goes into the token for it. */
export interface ContentKeyResult {
  cek: ContentKey;
  encryptedKey: Bytes;
  epk?: EphemeralPublicKey;
}

const KW_BITS: Partial<Record<JWEAlgorithm, number>> = {
  A128KW: 128,
  A256KW: 256,
  "ECDH-ES+A128KW": 128,
  "ECDH-ES+A256KW": 256,
};

/** Whether `key` can serve `alg` with `enc` at all (type, size, curve). */
export function keyFits(key: JWEKey, alg: JWEAlgorithm, enc: JWEEncryption): boolean {
  const spec = CONTENT[enc];
  if (key instanceof Uint8Array) {
    if (alg === "dir") return key.length === spec.keyBytes;
    if (alg === "A128KW" || alg === "A256KW") return key.length * 8 === KW_BITS[alg];
    return false;
  }
  const name = key.algorithm.name;
  switch (alg) {
    case "dir":
      return name === "AES-GCM" && spec.gcm &&
        (key.algorithm as AesKeyAlgorithm).length === spec.keyBytes * 8;
    case "A128KW":
    case "A256KW":
      return name === "AES-KW" && (key.algorithm as AesKeyAlgorithm).length === KW_BITS[alg];
    case "RSA-OAEP-256":
      return name === "RSA-OAEP";
    case "ECDH-ES":
    case "ECDH-ES+A128KW":
    case "ECDH-ES+A256KW":
      return name === "ECDH";
  }
}

/** Checks type and usages of a key for encrypting or decrypting. */
export function checkJWEKeyUsage(key: JWEKey, operation: "encrypt" | "decrypt"): void {
  if (key instanceof Uint8Array) return;
  if (!isCryptoKey(key)) {
    keyInvalid("The JWE key is not a CryptoKey or Uint8Array; expected one of them.");
  }
  const name = key.algorithm.name;
  const asymmetric = name === "RSA-OAEP" || name === "ECDH";
  if (asymmetric && operation === "encrypt" && key.type !== "public") {
    keyInvalid(`Encrypting with ${name} needs the public key; expected the pair's publicKey.`);
  }
  if (asymmetric && operation === "decrypt" && key.type !== "private") {
    keyInvalid(`Decrypting with ${name} needs the private key; expected the pair's privateKey.`);
  }
  const needs: KeyUsage[][] = name === "AES-GCM"
    ? [[operation]]
    : name === "AES-KW"
    ? [[operation === "encrypt" ? "wrapKey" : "unwrapKey"]]
    : name === "RSA-OAEP"
    ? [[operation], [operation === "encrypt" ? "wrapKey" : "unwrapKey"]]
    : name === "ECDH" && operation === "decrypt"
    ? [["deriveBits"]]
    : [[]];
  if (!needs.some((set) => set.every((usage) => hasUsage(key, usage)))) {
    keyInvalid(
      `The ${name} key's usages lack ${needs.map((set) => set.join("+")).join(" or ")}; ` +
        "expected a key created with them.",
    );
  }
}

function importKek(key: JWEKey, usage: KeyUsage): Promise<CryptoKey> | CryptoKey {
  return key instanceof Uint8Array ? subtle.importKey("raw", key, "AES-KW", false, [usage]) : key;
}

/** Imports raw CEK bytes as an extractable key, so that `wrapKey` can wrap them. */
function wrappableKey(enc: JWEEncryption, cek: Bytes): Promise<CryptoKey> {
  return CONTENT[enc].gcm
    ? subtle.importKey("raw", cek, "AES-GCM", true, ["encrypt"])
    : subtle.importKey("raw", cek, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
}

async function wrap(enc: JWEEncryption, kek: CryptoKey, cek: Bytes): Promise<ContentKeyResult> {
  const cekKey = await wrappableKey(enc, cek);
  const encryptedKey = new Uint8Array(await subtle.wrapKey("raw", cekKey, kek, "AES-KW"));
  // A GCM content key is already imported; reuse it for the content.
  return { cek: CONTENT[enc].gcm ? cekKey : cek, encryptedKey };
}

async function unwrap(
  enc: JWEEncryption,
  kek: CryptoKey,
  encryptedKey: Bytes,
): Promise<ContentKey> {
  const spec = CONTENT[enc];
  let cek: ContentKey;
  try {
    if (spec.gcm) {
      cek = await subtle.unwrapKey("raw", encryptedKey, kek, "AES-KW", "AES-GCM", false, [
        "decrypt",
      ]);
      if ((cek.algorithm as AesKeyAlgorithm).length !== spec.keyBytes * 8) decryptionFailed();
      return cek;
    }
    const key = await subtle.unwrapKey(
      "raw",
      encryptedKey,
      kek,
      "AES-KW",
      { name: "HMAC", hash: "SHA-256" },
      true,
      ["sign"],
    );
    cek = new Uint8Array(await subtle.exportKey("raw", key));
  } catch {
    return decryptionFailed();
  }
  if (cek.length !== spec.keyBytes) decryptionFailed();
  return cek;
}

/** Concat KDF of RFC 7518 4.6.2 (NIST SP 800-56A) with SHA-256. */
async function concatKdf(
  secret: Bytes,
  bits: number,
  algorithmId: string,
  apu: Bytes,
  apv: Bytes,
): Promise<Bytes> {
  const field = (bytes: Bytes) => concat(uint32(bytes.length), bytes);
  const otherInfo = concat(
    field(encoder.encode(algorithmId)),
    field(apu),
    field(apv),
    uint32(bits),
  );
  const rounds = Math.ceil(bits / 256);
  const out = new Uint8Array(rounds * 32);
  for (let round = 1; round <= rounds; round++) {
    const digest = await subtle.digest("SHA-256", concat(uint32(round), secret, otherInfo));
    out.set(new Uint8Array(digest), (round - 1) * 32);
  }
  return out.subarray(0, bits >> 3);
}

function uint32(value: number): Bytes {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

function curveBits(key: CryptoKey): number {
  const curve = (key.algorithm as EcKeyAlgorithm).namedCurve;
  return Math.ceil(Number(curve.slice(2)) / 8) * 8;
}

function partyInfo(value: unknown, name: string): Bytes {
  if (value === undefined) return new Uint8Array(0);
  if (typeof value !== "string") {
    fail("ERR_JOSE_INVALID", `The header ${name} is not a string; expected base64url.`);
  }
  return decode(value);
}

/** Derives the ECDH-ES key from the shared secret: the CEK itself for `ECDH-ES`, else the key-wrapping key. */
function ecdhDerive(
  alg: JWEAlgorithm,
  enc: JWEEncryption,
  shared: ArrayBuffer,
  header: { apu?: unknown; apv?: unknown },
): Promise<Bytes> {
  const [bits, algorithmId] = alg === "ECDH-ES"
    ? [CONTENT[enc].keyBytes * 8, enc]
    : [KW_BITS[alg]!, alg];
  return concatKdf(
    new Uint8Array(shared),
    bits,
    algorithmId,
    partyInfo(header.apu, "apu"),
    partyInfo(header.apv, "apv"),
  );
}

/** Produces the CEK for encryption, and the encrypted key / `epk` that carry it. */
export async function createContentKey(
  alg: JWEAlgorithm,
  enc: JWEEncryption,
  key: JWEKey,
  header: { apu?: unknown; apv?: unknown },
  fixedCek?: Bytes,
): Promise<ContentKeyResult> {
  const spec = CONTENT[enc];
  const empty = new Uint8Array(0);
  const newCek = () => fixedCek ?? randomBytes(spec.keyBytes);
  switch (alg) {
    case "dir":
      return { cek: key, encryptedKey: empty };
    case "A128KW":
    case "A256KW":
      return await wrap(enc, await importKek(key, "wrapKey"), newCek());
    case "RSA-OAEP-256": {
      const rsa = key as CryptoKey;
      const cek = newCek();
      const encryptedKey = hasUsage(rsa, "encrypt")
        ? await subtle.encrypt({ name: "RSA-OAEP" }, rsa, cek)
        : await subtle.wrapKey("raw", await wrappableKey(enc, cek), rsa, { name: "RSA-OAEP" });
      return { cek, encryptedKey: new Uint8Array(encryptedKey) };
    }
    case "ECDH-ES":
    case "ECDH-ES+A128KW":
    case "ECDH-ES+A256KW": {
      const recipient = key as CryptoKey;
      const namedCurve = (recipient.algorithm as EcKeyAlgorithm).namedCurve;
      const ephemeral = await subtle.generateKey({ name: "ECDH", namedCurve }, false, [
        "deriveBits",
      ]) as CryptoKeyPair;
      const [jwk, shared] = await Promise.all([
        subtle.exportKey("jwk", ephemeral.publicKey),
        subtle.deriveBits(
          { name: "ECDH", public: recipient },
          ephemeral.privateKey,
          curveBits(recipient),
        ),
      ]);
      const epk: EphemeralPublicKey = { kty: "EC", crv: jwk.crv!, x: jwk.x!, y: jwk.y! };
      const derived = await ecdhDerive(alg, enc, shared, header);
      if (alg === "ECDH-ES") return { cek: derived, encryptedKey: empty, epk };
      const kek = await subtle.importKey("raw", derived, "AES-KW", false, ["wrapKey"]);
      return { ...await wrap(enc, kek, newCek()), epk };
    }
  }
}

/**
 * Field prime and `b` of the NIST curves (a = -3), for the on-curve check.
 * Computed in a call marked pure: a bundler keeps a top-level BigInt
 * expression, even in an app that never uses ECDH-ES.
 */
const CURVES: Record<string, { p: bigint; b: bigint; bytes: number }> = /* @__PURE__ */ (() => ({
  "P-256": {
    p: 2n ** 256n - 2n ** 224n + 2n ** 192n + 2n ** 96n - 1n,
    b: 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn,
    bytes: 32,
  },
  "P-384": {
    p: 2n ** 384n - 2n ** 128n - 2n ** 96n + 2n ** 32n - 1n,
    b: 0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aefn,
    bytes: 48,
  },
  "P-521": {
    p: 2n ** 521n - 1n,
    b: 0x0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00n,
    bytes: 66,
  },
}))();

function toBigInt(bytes: Uint8Array): bigint {
  let hex = "0x0";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return BigInt(hex);
}

/** Whether (x, y) is a point of the curve: y^2 = x^3 - 3x + b (mod p). */
export function isOnCurve(curve: string, x: Uint8Array, y: Uint8Array): boolean {
  const spec = CURVES[curve];
  if (!spec || x.length !== spec.bytes || y.length !== spec.bytes) return false;
  const { p, b } = spec;
  const X = toBigInt(x);
  const Y = toBigInt(y);
  if (X >= p || Y >= p) return false;
  const left = (Y * Y) % p;
  const right = ((((X * X) % p) * X - 3n * X + b) % p + p) % p;
  return left === right;
}

async function importEpk(value: unknown, key: CryptoKey): Promise<CryptoKey> {
  const namedCurve = (key.algorithm as EcKeyAlgorithm).namedCurve;
  const epk = value as Partial<EphemeralPublicKey> | null;
  if (
    typeof epk !== "object" || epk === null || epk.kty !== "EC" || epk.crv !== namedCurve ||
    typeof epk.x !== "string" || typeof epk.y !== "string"
  ) {
    fail(
      "ERR_JOSE_INVALID",
      `The header epk is not an EC public key on ${namedCurve}; expected { kty, crv, x, y }.`,
    );
  }
  // Checked here because some runtimes import points that are off the curve (invalid-curve attacks).
  if (!isOnCurve(namedCurve, decode(epk.x), decode(epk.y))) {
    fail("ERR_JOSE_INVALID", `The header epk is not a point on ${namedCurve}; expected one.`);
  }
  try {
    return await subtle.importKey(
      "jwk",
      { kty: "EC", crv: namedCurve, x: epk.x, y: epk.y },
      { name: "ECDH", namedCurve },
      true,
      [],
    );
  } catch {
    return fail("ERR_JOSE_INVALID", "The header epk is not a valid point; expected a public key.");
  }
}

/** Direct algorithms carry no encrypted key; the others must. */
export function checkEncryptedKeySegment(alg: JWEAlgorithm, encryptedKey: Uint8Array): void {
  const direct = alg === "dir" || alg === "ECDH-ES";
  if (direct !== (encryptedKey.length === 0)) {
    fail(
      "ERR_JOSE_INVALID",
      direct
        ? `The encrypted key segment is not empty; expected none with ${alg}.`
        : `The encrypted key segment is empty; expected one with ${alg}.`,
    );
  }
}

/**
 * Recovers the CEK for decryption, after `checkEncryptedKeySegment`.
 * Failures are `ERR_JWE_DECRYPTION_FAILED`.
 */
export async function recoverContentKey(
  alg: JWEAlgorithm,
  enc: JWEEncryption,
  key: JWEKey,
  encryptedKey: Bytes,
  header: Record<string, unknown>,
): Promise<ContentKey> {
  const spec = CONTENT[enc];
  switch (alg) {
    case "dir":
      return key;
    case "A128KW":
    case "A256KW":
      return await unwrap(enc, await importKek(key, "unwrapKey"), encryptedKey);
    case "RSA-OAEP-256": {
      const rsa = key as CryptoKey;
      let cek: Bytes;
      try {
        cek = hasUsage(rsa, "decrypt")
          ? new Uint8Array(await subtle.decrypt({ name: "RSA-OAEP" }, rsa, encryptedKey))
          : new Uint8Array(
            await subtle.exportKey(
              "raw",
              await subtle.unwrapKey(
                "raw",
                encryptedKey,
                rsa,
                { name: "RSA-OAEP" },
                {
                  name: "HMAC",
                  hash: "SHA-256",
                },
                true,
                ["sign"],
              ),
            ),
          );
      } catch {
        // RFC 7516 11.5: carry on with a random CEK so that failure shows only at the tag check.
        cek = randomBytes(spec.keyBytes);
      }
      return cek.length === spec.keyBytes ? cek : randomBytes(spec.keyBytes);
    }
    case "ECDH-ES":
    case "ECDH-ES+A128KW":
    case "ECDH-ES+A256KW": {
      const recipient = key as CryptoKey;
      const epk = await importEpk(header.epk, recipient);
      let shared: ArrayBuffer;
      try {
        shared = await subtle.deriveBits(
          { name: "ECDH", public: epk },
          recipient,
          curveBits(recipient),
        );
      } catch {
        return decryptionFailed();
      }
      const derived = await ecdhDerive(alg, enc, shared, header);
      if (alg === "ECDH-ES") return derived;
      const kek = await subtle.importKey("raw", derived, "AES-KW", false, ["unwrapKey"]);
      return await unwrap(enc, kek, encryptedKey);
    }
  }
}
