/**
 * The keyed hash an API key is stored under: HMAC-SHA-256 of the whole key
 * text under a key derived with HKDF-SHA-256 from each configured string or
 * byte secret (the configured salt, else SHA-256 of the secret, as every
 * derived key; `info` `@service-stack/auth api-key hash`, a purpose of its
 * own). The record keeps that key's `kid` (64 bits of HKDF with `info`
 * `@service-stack/auth api-key kid`), so a key made before a rotation
 * verifies while its secret is still listed. Derived once per instance, on
 * first use; afterwards a hash is JavaScript only (no Web Crypto call).
 *
 * @module
 */

import { encoder, subtle } from "../jose/_common.ts";
import { encodeBase64Url } from "../jose/base64url.ts";
import { secretKid } from "../jose/_kid.ts";
import { importHkdfBase } from "../jose/keys.ts";
import { type HmacSha256, hmacSha256 } from "../crypto/sha256.ts";

/** One derived hash key: its kid and its MAC. */
export interface ApiKeyHasher {
  readonly kid: string;
  readonly mac: HmacSha256;
}

/** The hash keys of an instance: the first hashes new keys, all verify. */
export interface ApiKeyHashers {
  readonly current: ApiKeyHasher;
  readonly byKid: ReadonlyMap<string, ApiKeyHasher>;
}

const INFO = /* @__PURE__ */ encoder.encode("@service-stack/auth api-key hash");

/** The bytes of a string or byte secret, or `null` for any other kind of key. */
export function secretBytesOf(key: unknown): Uint8Array | null {
  if (typeof key === "string") return encoder.encode(key);
  if (key instanceof Uint8Array) return key;
  return null;
}

async function derive(secret: Uint8Array, salt: Uint8Array | undefined): Promise<ApiKeyHasher> {
  const base = await importHkdfBase(new Uint8Array(secret), salt && new Uint8Array(salt));
  const params = { name: "HKDF", hash: "SHA-256", salt: base.salt, info: INFO };
  const bytes = new Uint8Array(await subtle.deriveBits(params, base.key, 256));
  const kid = await secretKid(base, "api-key");
  const mac = hmacSha256(bytes);
  bytes.fill(0);
  return Object.freeze({ kid, mac });
}

/**
 * The hash keys of a key list, derived once on first use (string and byte
 * secrets only, newest first; others are skipped). The caller checked that
 * the first key is a string or byte secret.
 */
export function apiKeyHashers(
  keys: readonly unknown[],
  salt: string | undefined,
): () => Promise<ApiKeyHashers> {
  let pending: Promise<ApiKeyHashers> | undefined;
  const saltBytes = salt === undefined || salt === "" ? undefined : encoder.encode(salt);
  return () => {
    pending ??= Promise.all(
      keys.map(secretBytesOf).filter((bytes) => bytes !== null).map((bytes) =>
        derive(bytes!, saltBytes)
      ),
    ).then((list) =>
      Object.freeze({ current: list[0], byKid: new Map(list.map((h) => [h.kid, h])) })
    )
      .catch((error) => {
        pending = undefined;
        throw error;
      });
    return pending;
  };
}

/** The stored hash of a key text under one hash key, base64url. */
export function hashApiKey(hasher: ApiKeyHasher, key: string): string {
  return encodeBase64Url(hasher.mac(encoder.encode(key)));
}
