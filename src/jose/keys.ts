/**
 * Keys for `createJose`: synchronous validation of what the caller passed (a
 * key or a list of keys), HKDF-SHA-256 derivation of per-purpose keys from a
 * secret, and the AES-GCM key a lone HMAC key derives for sealing.
 *
 * @module
 */

import { keepLocalHmac } from "./_local_hmac.ts";
import { isRecord } from "../is_record.ts";
import { type Bytes, encoder, isCryptoKey, keyInvalid, subtle } from "./_common.ts";
import { JoseError } from "./errors.ts";
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

/**
 * One key `createJose` was given, validated: a secret to derive from, Web
 * Crypto keys to use as they are, or (`hmac`) an HMAC key that signs and from
 * which the encryption key is derived.
 */
export type KeySource =
  | { kind: "secret"; secret: Bytes; salt: Bytes | undefined }
  | { kind: "keys"; sign?: KeySides; encrypt?: KeySides }
  | { kind: "hmac"; sign: KeySides };

/** Options of {@link resolveKeySources}. */
export interface ResolveOptions {
  /** HKDF salt for string and byte secrets. */
  salt?: string | Uint8Array;
  /** Lets a lone HMAC key seal: it signs, and an AES-GCM key derived from it encrypts. */
  sealWithHmac?: boolean;
}

/** Whether a value is a Web Crypto key pair. */
export function isKeyPair(value: unknown): value is CryptoKeyPair {
  return isRecord(value) && isCryptoKey(value.privateKey) && isCryptoKey(value.publicKey);
}

function isCryptoSecret(value: unknown): value is CryptoSecret {
  return isRecord(value) && "sign" in value && "encrypt" in value;
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

function saltBytes(salt: string | Uint8Array | undefined): Bytes | undefined {
  if (salt === undefined) return undefined;
  const bytes = typeof salt === "string" ? encoder.encode(salt) : new Uint8Array(salt);
  return bytes.length > 0 ? bytes : undefined;
}

/** Validates one key for a mode, synchronously. Errors name the fix. */
function resolveKeySource(key: JWTKey, mode: JWTMode, options: ResolveOptions): KeySource {
  if (typeof key === "string" || key instanceof Uint8Array) {
    return { kind: "secret", secret: secretBytes(key), salt: saltBytes(options.salt) };
  }
  if (isCryptoKey(key) || isKeyPair(key)) {
    if (mode === "sealed") {
      if (options.sealWithHmac && isCryptoKey(key) && key.algorithm.name === "HMAC") {
        return { kind: "hmac", sign: signingSides(key) };
      }
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

/**
 * Validates a key, or a list of keys (the first issues tokens, all are read),
 * for a mode, synchronously. Errors name the fix, and the list entry.
 */
export function resolveKeySources(
  key: JWTKey | readonly JWTKey[],
  mode: JWTMode,
  options: ResolveOptions = {},
): KeySource[] {
  if (!Array.isArray(key)) return [resolveKeySource(key as JWTKey, mode, options)];
  if (key.length === 0) {
    keyInvalid(
      "The key list is empty; expected at least one key (the first issues tokens, " +
        "the others are still accepted).",
    );
  }
  return key.map((entry, index) => {
    try {
      return resolveKeySource(entry, mode, options);
    } catch (error) {
      if (!(error instanceof JoseError)) throw error;
      throw new JoseError(error.code, `Key ${index} of the list: ${error.message}`);
    }
  });
}

/** The HKDF input key and salt (SHA-256 of the secret unless a salt is given). */
export interface HkdfBase {
  key: CryptoKey;
  salt: Bytes;
}

/** Imports the secret for HKDF, once per `createJose`. */
export async function importHkdfBase(secret: Bytes, salt: Bytes | undefined): Promise<HkdfBase> {
  const [key, digest] = await Promise.all([
    subtle.importKey("raw", secret, "HKDF", false, ["deriveKey", "deriveBits"]),
    salt ? salt : subtle.digest("SHA-256", secret),
  ]);
  return { key, salt: new Uint8Array(digest) };
}

/**
 * Derives the key for a purpose and use: HS256 (256 bits) for signing, A256GCM
 * for encryption; HKDF `info` is e.g. `@service-stack/auth session signing`.
 */
export async function deriveKey(
  base: HkdfBase,
  purpose: string,
  use: "signing" | "encryption",
): Promise<CryptoKey> {
  const params = {
    name: "HKDF",
    hash: "SHA-256",
    salt: base.salt,
    info: encoder.encode(`@service-stack/auth ${purpose} ${use}`),
  };
  if (use === "encryption") {
    return await subtle.deriveKey(params, base.key, { name: "AES-GCM", length: 256 }, false, [
      "encrypt",
      "decrypt",
    ]);
  }
  // The same 256 bits deriveKey would give, kept for the JavaScript HMAC of the hot path.
  const bytes = new Uint8Array(await subtle.deriveBits(params, base.key, 256));
  const key = await subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  keepLocalHmac(key, bytes);
  bytes.fill(0);
  return key;
}

/**
 * Derives an A256GCM key from an HMAC key, with HMAC as the PRF: the first 32
 * bytes of HMAC(key, "@service-stack/auth {purpose} encryption"). The label
 * holds spaces and "@", which no JWS signing input does, so no token the key
 * signs ever carries this value.
 */
export async function deriveKeyFromHmac(hmac: CryptoKey, purpose: string): Promise<CryptoKey> {
  if (!hmac.usages.includes("sign")) {
    keyInvalid(
      'Deriving the encryption key needs the HMAC key\'s "sign" usage; expected a key created with it.',
    );
  }
  const label = encoder.encode(`@service-stack/auth ${purpose} encryption`);
  const bytes = new Uint8Array(await subtle.sign("HMAC", hmac, label)).subarray(0, 32);
  return await subtle.importKey("raw", bytes, "AES-GCM", false, ["encrypt", "decrypt"]);
}
