/**
 * Keys for `createJose`: synchronous validation of what the caller passed,
 * and HKDF-SHA-256 derivation of per-purpose keys from a secret.
 *
 * @module
 */

import { type Bytes, encoder, isCryptoKey, keyInvalid, subtle } from "./_common.ts";
import { jweProfileForKey, jwsAlgorithmForKey } from "./algorithms.ts";
import type { CryptoSecret, JWTKey, JWTMode } from "./types.ts";

/** Secrets shorter than this many bytes are refused. */
const MIN_SECRET_BYTES = 32;

/** The two sides of a key: the one that signs/decrypts and the one that verifies/encrypts. */
export interface KeySides {
  /** Secret or private key: signs, decrypts. */
  private?: CryptoKey;
  /** Secret or public key: verifies, encrypts. */
  public?: CryptoKey;
}

/** What `createJose` was given, validated. */
export type KeySource =
  | { kind: "secret"; secret: Bytes; salt: Bytes | undefined }
  | { kind: "keys"; sign?: KeySides; encrypt?: KeySides };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isKeyPair(value: unknown): value is CryptoKeyPair {
  return isObject(value) && isCryptoKey(value.privateKey) && isCryptoKey(value.publicKey);
}

function isCryptoSecret(value: unknown): value is CryptoSecret {
  return isObject(value) && "sign" in value && "encrypt" in value;
}

function sidesOf(key: CryptoKey | CryptoKeyPair, role: string): KeySides {
  if (isCryptoKey(key)) {
    if (key.type === "secret") return { private: key, public: key };
    return key.type === "private" ? { private: key } : { public: key };
  }
  if (isKeyPair(key)) {
    if (key.privateKey.algorithm.name !== key.publicKey.algorithm.name) {
      keyInvalid(`The ${role} key pair mixes algorithms; expected both keys of one algorithm.`);
    }
    return { private: key.privateKey, public: key.publicKey };
  }
  return keyInvalid(`The ${role} key is not a CryptoKey or CryptoKeyPair; expected one of them.`);
}

function anyKey(sides: KeySides): CryptoKey {
  return (sides.public ?? sides.private)!;
}

function signingSides(key: CryptoKey | CryptoKeyPair): KeySides {
  const sides = sidesOf(key, "signing");
  jwsAlgorithmForKey(anyKey(sides));
  return sides;
}

function encryptionSides(key: CryptoKey | CryptoKeyPair): KeySides {
  const sides = sidesOf(key, "encryption");
  jweProfileForKey(anyKey(sides));
  return sides;
}

function secretBytes(key: string | Uint8Array): Bytes {
  const bytes = typeof key === "string" ? encoder.encode(key) : new Uint8Array(key);
  if (bytes.length < MIN_SECRET_BYTES) {
    keyInvalid(
      `The secret is ${bytes.length} bytes; expected at least ${MIN_SECRET_BYTES} random bytes ` +
        "(for example `openssl rand -base64 32`).",
    );
  }
  return bytes;
}

/**
 * Validates a key for a mode, synchronously. Errors name the fix.
 */
export function resolveKeySource(
  key: JWTKey,
  mode: JWTMode,
  salt?: string | Uint8Array,
): KeySource {
  if (typeof key === "string" || key instanceof Uint8Array) {
    const saltBytes = salt === undefined
      ? undefined
      : typeof salt === "string"
      ? encoder.encode(salt)
      : new Uint8Array(salt);
    return {
      kind: "secret",
      secret: secretBytes(key),
      salt: saltBytes && saltBytes.length > 0 ? saltBytes : undefined,
    };
  }
  if (isCryptoKey(key) || isKeyPair(key)) {
    if (mode === "sealed") {
      keyInvalid(
        "In sealed mode one CryptoKey or CryptoKeyPair cannot both sign and encrypt; " +
          "pass { sign, encrypt } (a CryptoSecret), a string secret, or choose mode " +
          '"signed" or "encrypted".',
      );
    }
    return mode === "signed"
      ? { kind: "keys", sign: signingSides(key) }
      : { kind: "keys", encrypt: encryptionSides(key) };
  }
  if (isCryptoSecret(key)) {
    return { kind: "keys", sign: signingSides(key.sign), encrypt: encryptionSides(key.encrypt) };
  }
  return keyInvalid(
    "The key is not a string, Uint8Array, CryptoKey, CryptoKeyPair or { sign, encrypt }; " +
      "expected one of them.",
  );
}

/** The HKDF input key and salt (SHA-256 of the secret unless a salt is given). */
export interface HkdfBase {
  key: CryptoKey;
  salt: Bytes;
}

/** Imports the secret for HKDF, once per `createJose`. */
export async function importHkdfBase(secret: Bytes, salt: Bytes | undefined): Promise<HkdfBase> {
  const [key, digest] = await Promise.all([
    subtle.importKey("raw", secret, "HKDF", false, ["deriveKey"]),
    salt ? salt : subtle.digest("SHA-256", secret),
  ]);
  return { key, salt: new Uint8Array(digest) };
}

/**
 * Derives the key for a purpose and use: HS256 (256 bits) for signing, A256GCM
 * for encryption; HKDF `info` is e.g. `@service-stack/auth session signing`.
 */
export function deriveKey(
  base: HkdfBase,
  purpose: string,
  use: "signing" | "encryption",
): Promise<CryptoKey> {
  const signing = use === "signing";
  return subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: base.salt,
      info: encoder.encode(`@service-stack/auth ${purpose} ${use}`),
    },
    base.key,
    signing ? { name: "HMAC", hash: "SHA-256", length: 256 } : { name: "AES-GCM", length: 256 },
    false,
    signing ? ["sign", "verify"] : ["encrypt", "decrypt"],
  );
}
