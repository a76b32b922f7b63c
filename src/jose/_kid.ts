/**
 * Key ids (`kid`): a short public name for each key, derived from the key
 * without revealing it, so that a token names the key that opens it.
 *
 * @module
 */

import { encoder, subtle } from "./_common.ts";
import { encodeBase64Url } from "./base64url.ts";
import type { KeySides } from "./_contexts.ts";
import type { HkdfBase } from "./keys.ts";

/** Input no JWS signing input can equal: it holds "@", "/" and a space. */
const LABEL = /* @__PURE__ */ encoder.encode("@service-stack/auth kid");
/** Bits of a derived kid: 64, 11 base64url characters. */
const KID_BITS = 64;

function shortId(bytes: ArrayBuffer): string {
  return encodeBase64Url(new Uint8Array(bytes, 0, KID_BITS / 8));
}

/**
 * The kid of a string or byte secret for one purpose: 64 bits of
 * HKDF-SHA-256 (the same salt as the keys, info `@service-stack/auth {purpose} kid`).
 */
export async function secretKid(base: HkdfBase, purpose: string): Promise<string> {
  const bits = await subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: base.salt,
      info: encoder.encode(`@service-stack/auth ${purpose} kid`),
    },
    base.key,
    KID_BITS,
  );
  return shortId(bits);
}

/** The RFC 7638 members of a public JWK, in their lexicographic order. */
function thumbprintInput(jwk: JsonWebKey): string | undefined {
  switch (jwk.kty) {
    case "RSA":
      return JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n });
    case "EC":
      return JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
    case "OKP":
      return JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
    default:
      return undefined;
  }
}

/** The RFC 7638 SHA-256 thumbprint of an asymmetric key's public part, if it can be exported. */
async function thumbprint(key: CryptoKey): Promise<string | null> {
  if (!key.extractable) return null;
  try {
    const input = thumbprintInput(await subtle.exportKey("jwk", key));
    if (input === undefined) return null;
    return encodeBase64Url(new Uint8Array(await subtle.digest("SHA-256", encoder.encode(input))));
  } catch {
    return null;
  }
}

/** The kid of a secret Web Crypto key, from the key used as a PRF on a fixed label. */
async function secretKeyKid(key: CryptoKey): Promise<string | null> {
  const usages = key.usages;
  switch (key.algorithm.name) {
    case "HMAC":
      return usages.includes("sign") ? shortId(await subtle.sign("HMAC", key, LABEL)) : null;
    case "AES-GCM": {
      if (!usages.includes("encrypt")) return null;
      // The tag of an empty message: a MAC of the label under a fixed IV that no random IV repeats.
      const params = { name: "AES-GCM", iv: new Uint8Array(12), additionalData: LABEL };
      return shortId(await subtle.encrypt(params, key, new Uint8Array(0)));
    }
    case "AES-KW": {
      if (!usages.includes("wrapKey")) return null;
      const fixed = await subtle.importKey("raw", LABEL.subarray(0, 16), "AES-GCM", true, [
        "encrypt",
      ]);
      return shortId(await subtle.wrapKey("raw", fixed, key, "AES-KW"));
    }
    default:
      return null;
  }
}

/**
 * The kid of a Web Crypto key: for a secret key (HMAC, AES-GCM, AES-KW), 64
 * bits of the key's own PRF on a fixed label; for an asymmetric key, the RFC
 * 7638 thumbprint of its public part. Null when neither can be computed
 * without a usage the key lacks or an export it forbids.
 */
export async function keyKid(sides: KeySides): Promise<string | null> {
  const key = (sides.public ?? sides.private)!;
  if (key.type === "secret") return await secretKeyKid(key);
  return (sides.public && await thumbprint(sides.public)) ??
    (sides.private && await thumbprint(sides.private)) ?? null;
}
