/**
 * Keys for `createJose`: synchronous validation of what the caller passed (a
 * key or a list of keys) and HKDF-SHA-256 derivation of per-purpose keys
 * from a string or byte secret. Web Crypto keys (`CryptoKey`, key pairs,
 * `{ sign, encrypt }`) are validated by a {@link WebCryptoKit} the caller
 * passes, so that code holding only secrets never reaches theirs.
 *
 * @module
 */

import { keepLocalHmac } from "./_local_hmac.ts";
import { isRecord } from "../is_record.ts";
import { type Bytes, encoder, isCryptoKey, keyInvalid, subtle } from "./_common.ts";
import type { KeyPlan } from "./_key_plan.ts";
import { JoseError } from "./errors.ts";
import type { CryptoSecret, JWTKey, JWTMode, WebCryptoKey, WebCryptoKeyPair } from "./types.ts";

/** Secrets shorter than this many bytes are refused. */
const MIN_SECRET_BYTES = 32;

/**
 * One key `createJose` was given, validated: a secret to derive keys from,
 * or (`webCrypto`) Web Crypto keys, laid out by the kit that validated them.
 */
export type KeySource =
  | { kind: "secret"; secret: Bytes; salt: Bytes | undefined }
  | {
    kind: "webCrypto";
    /** Whether its encryption key derives from its signing key (a lone HMAC key that seals). */
    selfSealing: boolean;
    /** How it gets its contexts and kids for one purpose. */
    plan(purpose: string): KeyPlan;
  };

/** Options of {@link resolveKeySources}. */
export interface ResolveOptions {
  /** HKDF salt for string and byte secrets. */
  salt?: string | Uint8Array;
  /** Lets a lone HMAC key seal: it signs, and an AES-GCM key derived from it encrypts. */
  sealWithHmac?: boolean;
  /** Validates Web Crypto keys; without it only string and byte secrets are keys. */
  webCrypto?: WebCryptoKit;
}

/** What one lone Web Crypto key (or pair) can do. */
export type LoneKeyKind = "encryption" | "hmac" | "asymmetric";

/**
 * Support for Web Crypto keys (`CryptoKey`, `CryptoKeyPair`, `{ sign, encrypt }`):
 * `WEB_CRYPTO_KEYS` of `_web_crypto_keys.ts`. `createJose` and `joseForPurpose`
 * always pass it; `createAuth` of `core.ts` only with the `webCryptoKeys`
 * feature, so that an app configured with string secrets bundles none of
 * the asymmetric and key-management code.
 */
export interface WebCryptoKit {
  /** Validates a key for a mode; undefined when it is no Web Crypto key, pair or `{ sign, encrypt }`. */
  resolve(key: unknown, mode: JWTMode, options: ResolveOptions): KeySource | undefined;
  /** What one lone key or pair can do; undefined for anything else (`{ sign, encrypt }` included). */
  kindOf(key: unknown): LoneKeyKind | undefined;
}

/** Whether a value is a Web Crypto key pair. */
export function isKeyPair(value: unknown): value is WebCryptoKeyPair {
  return isRecord(value) && isCryptoKey(value.privateKey) && isCryptoKey(value.publicKey);
}

/** Whether a value has the shape of `{ sign, encrypt }` (its keys are checked by the kit). */
export function isCryptoSecret(value: unknown): value is CryptoSecret {
  return isRecord(value) && "sign" in value && "encrypt" in value;
}

/** Whether a key needs a {@link WebCryptoKit}: a `CryptoKey`, a `CryptoKeyPair` or `{ sign, encrypt }`. */
export function isWebCryptoKey(value: unknown): boolean {
  return isCryptoKey(value) || isKeyPair(value) || isCryptoSecret(value);
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
  const { webCrypto } = options;
  const source = webCrypto?.resolve(key, mode, options);
  if (source !== undefined) return source;
  if (webCrypto === undefined && isWebCryptoKey(key)) {
    keyInvalid(
      "The key is a CryptoKey, CryptoKeyPair or { sign, encrypt }, which this JOSE object " +
        "was made without support for; expected a string or byte secret.",
    );
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
  key: WebCryptoKey;
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
): Promise<WebCryptoKey> {
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
