/**
 * The opaque WebAuthn user handle (`user.id`) of an account.
 *
 * @module
 */

import type { WebCryptoKey } from "../jose/types.ts";
import { encodeBase64Url } from "../jose/base64url.ts";

const encoder = /* @__PURE__ */ new TextEncoder();
/** Separates this use of the key from any other HMAC made with it. */
const LABEL = "service-stack/auth webauthn user handle\0";

/**
 * Derives the user handle of `sub`: base64url of HMAC-SHA-256(key, label ‖
 * sub), 32 bytes. Stable for a key, unlinkable to the `sub` without it, and
 * never the `sub` itself (WebAuthn Level 3 section 14.6.1: a handle must not
 * identify the user). `key` is an HMAC SHA-256 key with usage `"sign"`.
 *
 * @example
 * ```ts
 * import { deriveUserHandle } from "./user_handle.ts";
 * const key = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
 * const handle = await deriveUserHandle(key, "user-123"); // 43 base64url characters
 * ```
 */
export async function deriveUserHandle(key: WebCryptoKey, sub: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(LABEL + sub));
  return encodeBase64Url(new Uint8Array(mac));
}
