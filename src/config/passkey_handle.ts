/**
 * The keys WebAuthn user handles are derived with: one HMAC key per
 * configured secret, newest first, so that a rotated secret still
 * recognizes the handles of passkeys registered under the previous one
 * while it stays in the list.
 *
 * @module
 */

import type { WebCryptoKey } from "../jose/types.ts";
import { isCryptoKey } from "../jose/_common.ts";
import type { JWTKey } from "../jose/types.ts";

const encoder = /* @__PURE__ */ new TextEncoder();
const INFO = /* @__PURE__ */ encoder.encode("@service-stack/auth passkey user-handle");

/** What one configured key gives: secret bytes to derive from, an HMAC key to use, or nothing. */
function source(key: unknown): Uint8Array | WebCryptoKey | null {
  if (typeof key === "string") return encoder.encode(key);
  if (key instanceof Uint8Array) return key;
  const hmac = (k: unknown) =>
    isCryptoKey(k) && k.algorithm.name === "HMAC" && k.usages.includes("sign") ? k : null;
  if (isCryptoKey(key)) return hmac(key);
  if (typeof key === "object" && key !== null && "sign" in key) {
    return hmac((key as { sign: unknown }).sign);
  }
  return null;
}

/** Whether the first key can derive user handles (a secret or an HMAC key that signs). */
export function canDeriveUserHandles(keys: readonly JWTKey[]): boolean {
  return keys.length > 0 && source(keys[0]) !== null;
}

async function derive(
  from: Uint8Array | WebCryptoKey,
  salt: Uint8Array,
): Promise<WebCryptoKey> {
  if (isCryptoKey(from)) return from;
  const base = await crypto.subtle.importKey("raw", new Uint8Array(from), "HKDF", false, [
    "deriveKey",
  ]);
  return await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(salt), info: INFO },
    base,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign"],
  );
}

/**
 * The user-handle keys of a key list, derived once, on first use: HKDF
 * (SHA-256, the configured salt, a label of their own) for string and byte
 * secrets, the key itself for an HMAC key; other keys are skipped.
 */
export function userHandleKeys(
  keys: readonly JWTKey[],
  salt: string | undefined,
): () => Promise<readonly WebCryptoKey[]> {
  let pending: Promise<readonly WebCryptoKey[]> | undefined;
  const saltBytes = encoder.encode(salt ?? "");
  return () => {
    pending ??= Promise.all(
      keys.map(source).filter((from) => from !== null).map((from) => derive(from!, saltBytes)),
    ).catch((error) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
