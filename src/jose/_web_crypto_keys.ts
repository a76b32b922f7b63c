/**
 * Web Crypto keys as JOSE keys: a `CryptoKey`, a `CryptoKeyPair` or
 * `{ sign, encrypt }` pins its algorithm (every JWS algorithm, every JWE key
 * management), and its `kid` is computed from the key. {@link WEB_CRYPTO_KEYS}
 * is what `createJose` and `joseForPurpose` pass to `resolveKeySources`;
 * keeping it apart lets an app configured with string secrets bundle none
 * of it.
 *
 * @module
 */

import { encoder, isCryptoKey, keyInvalid, subtle } from "./_common.ts";
import { encryptionContext, type KeySides, signingContext } from "./_contexts.ts";
import type { ContextBuilders, KeyPlan, SigningOrEncryption } from "./_key_plan.ts";
import { keyKid } from "./_kid.ts";
import { lazy } from "./_lazy.ts";
import { jweProfileForKey, jwsAlgorithmForKey } from "./algorithms.ts";
import { JoseError } from "./errors.ts";
import { prepareJWSKey } from "./jws.ts";
import {
  isCryptoSecret,
  isKeyPair,
  type KeySource,
  type LoneKeyKind,
  type ResolveOptions,
  type WebCryptoKit,
} from "./keys.ts";
import type { JWTMode } from "./types.ts";

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

/** Contexts of keys given as they are: each checked, its algorithm pinned by the key. */
const CHECKED: ContextBuilders = {
  signing: (sides, header) => signingContext(sides, header, prepareJWSKey),
  encryption: encryptionContext,
};

function noKey(use: SigningOrEncryption): Error {
  return new JoseError(
    "ERR_JOSE_KEY_INVALID",
    `This JOSE object has no ${use} key; pass { sign, encrypt } or a string secret to use it.`,
  );
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

/** A lone HMAC key that seals: it signs, and the AES-GCM key derived from it encrypts. */
function hmacSource(sign: KeySides): KeySource {
  return {
    kind: "webCrypto",
    selfSealing: true,
    plan(purpose): KeyPlan {
      // The encryption key is derived from the signing key, so one kid names both.
      const kid = lazy(() => keyKid(sign));
      return {
        async sides(use) {
          if (use === "signing") return sign;
          const derived = await deriveKeyFromHmac(sign.private!, purpose);
          return { private: derived, public: derived };
        },
        kid: () => kid,
        contexts: CHECKED,
      };
    },
  };
}

/** Keys used as they are: a signing key, an encryption key, or both (`{ sign, encrypt }`). */
function keysSource(sign: KeySides | undefined, encrypt: KeySides | undefined): KeySource {
  return {
    kind: "webCrypto",
    selfSealing: false,
    plan(): KeyPlan {
      const signKid = lazy(async () => sign ? await keyKid(sign) : null);
      const encryptKid = lazy(async () => encrypt ? await keyKid(encrypt) : null);
      return {
        sides(use) {
          const sides = use === "signing" ? sign : encrypt;
          return sides ? Promise.resolve(sides) : Promise.reject(noKey(use));
        },
        kid: (use) => use === "signing" ? signKid : encryptKid,
        contexts: CHECKED,
      };
    },
  };
}

function resolveWebCryptoKey(
  key: unknown,
  mode: JWTMode,
  options: ResolveOptions,
): KeySource | undefined {
  if (isCryptoKey(key) || isKeyPair(key)) {
    if (mode === "sealed") {
      if (options.sealWithHmac && isCryptoKey(key) && key.algorithm.name === "HMAC") {
        return hmacSource(signingSides(key));
      }
      keyInvalid(
        "In sealed mode one CryptoKey or CryptoKeyPair cannot both sign and encrypt; " +
          "pass { sign, encrypt } (a CryptoSecret), a string secret, or choose mode " +
          '"signed" or "encrypted".',
      );
    }
    return mode === "signed"
      ? keysSource(signingSides(key), undefined)
      : keysSource(undefined, encryptionSides(key));
  }
  if (isCryptoSecret(key)) {
    return keysSource(signingSides(key.sign), encryptionSides(key.encrypt));
  }
  return undefined;
}

const ENCRYPTION_KEYS: readonly string[] = ["AES-GCM", "AES-KW", "RSA-OAEP", "ECDH"];

/** What one lone Web Crypto key can do; undefined for secrets, `{ sign, encrypt }` and non-keys. */
function loneKeyKind(key: unknown): LoneKeyKind | undefined {
  const name = isCryptoKey(key)
    ? key.algorithm.name
    : isKeyPair(key)
    ? key.publicKey.algorithm.name
    : undefined;
  if (name === undefined) return undefined;
  if (ENCRYPTION_KEYS.includes(name)) return "encryption";
  return name === "HMAC" ? "hmac" : "asymmetric";
}

/**
 * Support for every Web Crypto key kind: pass it as `webCrypto` to
 * `resolveKeySources` (and to `purposeMode`).
 */
export const WEB_CRYPTO_KEYS: WebCryptoKit = {
  resolve: resolveWebCryptoKey,
  kindOf: loneKeyKind,
};
