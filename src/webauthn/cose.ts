/**
 * Credential public keys: a COSE_Key (RFC 9052 section 7, RFC 9053) checked
 * and imported into Web Crypto, exported as SPKI for storage, re-imported
 * from SPKI, and used to verify an assertion signature.
 *
 * Supported: EdDSA (-8, OKP, crv 6 Ed25519), ES256 (-7, EC2, crv 1 P-256)
 * and RS256 (-257, RSA, an odd modulus of 2048 to 8192 bits, exponent 65537).
 *
 * @module
 */

import type { WebCryptoKey } from "../jose/types.ts";
import { decodeBase64Url, encodeBase64Url } from "../jose/base64url.ts";
import type { CborValue } from "./cbor.ts";
import { isEd25519Point, isP256Point } from "./_curves.ts";
import { derToRawEcdsa } from "./der.ts";
import { WebAuthnError } from "./errors.ts";

/** The COSE algorithms this module verifies: EdDSA, ES256, RS256. */
export const COSE_ALGORITHMS: readonly CoseAlgorithm[] = /* @__PURE__ */ Object.freeze([
  -8,
  -7,
  -257,
]);

/** A COSE algorithm identifier this module supports. */
export type CoseAlgorithm = -8 | -7 | -257;

/** A credential public key checked and imported from its COSE form. */
export interface CoseKeyImport {
  /** The key's COSE `alg`. */
  algorithm: CoseAlgorithm;
  /** The public key, ready for {@link verifyCredentialSignature}. */
  key: WebCryptoKey;
  /** The key as DER SubjectPublicKeyInfo, the form to store. */
  spki: Uint8Array<ArrayBuffer>;
}

// COSE labels (RFC 9052 section 7.1, RFC 9053 section 7, RFC 8230 section 4).
const KTY = 1;
const ALG = 3;
const CRV = -1; // OKP and EC2
const X = -2; // OKP and EC2
const Y = -3; // EC2
const D = -4; // OKP and EC2 private key
const RSA_N = -1;
const RSA_E = -2;

const KTY_OKP = 1;
const KTY_EC2 = 2;
const KTY_RSA = 3;
const CRV_P256 = 1;
const CRV_ED25519 = 6;
const RSA_MIN_BITS = 2048;
const RSA_MAX_BITS = 8192;

type ImportParams = AlgorithmIdentifier | RsaHashedImportParams | EcKeyImportParams;

/** Web Crypto import parameters per algorithm. */
const IMPORT: Readonly<Record<CoseAlgorithm, ImportParams>> = {
  [-8]: { name: "Ed25519" },
  [-7]: { name: "ECDSA", namedCurve: "P-256" },
  [-257]: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
};
/** Web Crypto verify parameters per algorithm. */
const VERIFY: Readonly<Record<CoseAlgorithm, AlgorithmIdentifier | EcdsaParams>> = {
  [-8]: { name: "Ed25519" },
  [-7]: { name: "ECDSA", hash: "SHA-256" },
  [-257]: { name: "RSASSA-PKCS1-v1_5" },
};

/**
 * Whether `value` is one of {@link COSE_ALGORITHMS}.
 *
 * @example
 * ```ts
 * import { isCoseAlgorithm } from "./cose.ts";
 * isCoseAlgorithm(-7); // true
 * isCoseAlgorithm(-35); // false (ES384 is not supported)
 * ```
 */
export function isCoseAlgorithm(value: unknown): value is CoseAlgorithm {
  return value === -8 || value === -7 || value === -257;
}

function keyError(
  reason: "key_malformed" | "key_mismatch" | "key_invalid" | "key_too_weak" | "key_algorithm",
  message: string,
): never {
  throw new WebAuthnError(reason, message);
}

function bytesAt(
  map: Map<number | string, CborValue>,
  label: number,
  what: string,
): Uint8Array<ArrayBuffer> {
  const value = map.get(label);
  if (!(value instanceof Uint8Array)) {
    keyError("key_malformed", `COSE key has no ${what} byte string; expected one.`);
  }
  return value;
}

/** Refuses a key that carries private-key parameters. */
function refusePrivate(map: Map<number | string, CborValue>, labels: readonly number[]): void {
  for (const label of labels) {
    if (map.has(label)) {
      keyError(
        "key_malformed",
        "COSE key carries private-key parameters; expected a public key only.",
      );
    }
  }
}

/**
 * Checks a decoded COSE_Key and imports it: `kty`, `crv` and `alg` must
 * agree, `alg` must be in `allowed`, coordinates must have their exact
 * lengths and lie on the curve (Ed25519 points of small order are refused
 * too), an RSA modulus must be odd with 2048 to 8192 bits and its exponent
 * be 65537.
 *
 * @throws {WebAuthnError} with reason `key_malformed`, `key_algorithm`,
 *   `key_mismatch`, `key_invalid` or `key_too_weak`.
 *
 * @example
 * ```ts
 * import { decodeCbor } from "./cbor.ts";
 * import { importCoseKey } from "./cose.ts";
 * declare const coseBytes: Uint8Array; // from authenticator data
 * const { algorithm, key, spki } = await importCoseKey(decodeCbor(coseBytes));
 * ```
 */
export async function importCoseKey(
  cose: CborValue,
  allowed: readonly number[] = COSE_ALGORITHMS,
): Promise<CoseKeyImport> {
  if (!(cose instanceof Map)) {
    keyError("key_malformed", "Credential public key is not a COSE_Key map; expected a CBOR map.");
  }
  const kty = cose.get(KTY);
  const alg = cose.get(ALG);
  if (typeof kty !== "number") {
    keyError("key_malformed", "COSE key has no integer kty; expected 1 (OKP), 2 (EC2) or 3 (RSA).");
  }
  if (typeof alg !== "number") {
    keyError("key_malformed", "COSE key has no integer alg; expected -8, -7 or -257.");
  }
  if (!isCoseAlgorithm(alg) || !allowed.includes(alg)) {
    keyError(
      "key_algorithm",
      `COSE key algorithm ${alg} is not allowed; expected one of ${allowed.join(", ")}.`,
    );
  }
  let key: WebCryptoKey;
  const subtle = crypto.subtle;
  if (alg === -8) {
    if (kty !== KTY_OKP) {
      keyError("key_mismatch", "COSE key for EdDSA has the wrong kty; expected 1 (OKP).");
    }
    if (cose.get(CRV) !== CRV_ED25519) {
      keyError("key_mismatch", "COSE key for EdDSA has the wrong crv; expected 6 (Ed25519).");
    }
    refusePrivate(cose, [D]);
    const x = bytesAt(cose, X, "x");
    if (x.length !== 32) keyError("key_invalid", "Ed25519 key is not 32 bytes; expected 32.");
    if (!isEd25519Point(x)) {
      keyError(
        "key_invalid",
        "Ed25519 key is not a valid point of large order; expected a real public key.",
      );
    }
    key = await importOrRefuse(() => subtle.importKey("raw", x, IMPORT[-8], true, ["verify"]));
  } else if (alg === -7) {
    if (kty !== KTY_EC2) {
      keyError("key_mismatch", "COSE key for ES256 has the wrong kty; expected 2 (EC2).");
    }
    if (cose.get(CRV) !== CRV_P256) {
      keyError("key_mismatch", "COSE key for ES256 has the wrong crv; expected 1 (P-256).");
    }
    refusePrivate(cose, [D]);
    const x = bytesAt(cose, X, "x");
    const y = bytesAt(cose, Y, "y");
    if (x.length !== 32 || y.length !== 32) {
      keyError("key_invalid", "P-256 coordinates are not 32 bytes each; expected 32.");
    }
    if (!isP256Point(x, y)) {
      keyError("key_invalid", "P-256 key is not a point on the curve; expected a real public key.");
    }
    const point = new Uint8Array(65);
    point[0] = 0x04;
    point.set(x, 1);
    point.set(y, 33);
    key = await importOrRefuse(() => subtle.importKey("raw", point, IMPORT[-7], true, ["verify"]));
  } else {
    if (kty !== KTY_RSA) {
      keyError("key_mismatch", "COSE key for RS256 has the wrong kty; expected 3 (RSA).");
    }
    // d, p, q, dP, dQ, qInv, other, r_i, d_i, t_i (RFC 8230 section 4).
    refusePrivate(cose, [-3, -4, -5, -6, -7, -8, -9, -10, -11, -12]);
    const n = bytesAt(cose, RSA_N, "n");
    const e = bytesAt(cose, RSA_E, "e");
    if (n.length === 0 || n[0] === 0) {
      keyError(
        "key_invalid",
        "RSA modulus has a leading zero byte; expected its minimal encoding.",
      );
    }
    const bits = n.length * 8 - Math.clz32(n[0]) + 24;
    if (bits < RSA_MIN_BITS) {
      keyError("key_too_weak", `RSA modulus has ${bits} bits; expected at least ${RSA_MIN_BITS}.`);
    }
    if (bits > RSA_MAX_BITS) {
      keyError("key_invalid", `RSA modulus has ${bits} bits; expected at most ${RSA_MAX_BITS}.`);
    }
    if (!(n[n.length - 1] & 1)) {
      keyError(
        "key_invalid",
        "RSA modulus is even; expected an odd modulus (a product of primes).",
      );
    }
    // Every authenticator uses 65537 (FIPS 186-5 requires at least it); a small one invites attacks.
    if (e.length !== 3 || e[0] !== 1 || e[1] !== 0 || e[2] !== 1) {
      keyError("key_invalid", "RSA exponent is not 65537; expected 65537 (bytes 01 00 01).");
    }
    key = await importOrRefuse(() =>
      subtle.importKey(
        "jwk",
        { kty: "RSA", n: encodeBase64Url(n), e: encodeBase64Url(e) },
        IMPORT[-257],
        true,
        [
          "verify",
        ],
      )
    );
  }
  const spki = new Uint8Array(await subtle.exportKey("spki", key));
  return { algorithm: alg, key, spki };
}

async function importOrRefuse(run: () => Promise<WebCryptoKey>): Promise<WebCryptoKey> {
  try {
    return await run();
  } catch {
    return keyError("key_invalid", "Public key was refused by Web Crypto; expected a valid key.");
  }
}

/**
 * Imports a stored credential public key (SPKI bytes, as
 * {@link importCoseKey} returned them) for `algorithm`. Import once and
 * reuse the `CryptoKey` where keys can be cached: an import is one
 * Web Crypto call.
 *
 * @throws {WebAuthnError} with reason `key_algorithm` for an unsupported
 *   algorithm or `key_invalid` when the bytes are not a key of that algorithm.
 *
 * @example
 * ```ts
 * import { importCredentialKey } from "./cose.ts";
 * declare const stored: { publicKey: Uint8Array; algorithm: number };
 * const key = await importCredentialKey(stored.publicKey, stored.algorithm);
 * ```
 */
export async function importCredentialKey(
  spki: Uint8Array | string,
  algorithm: number,
): Promise<WebCryptoKey> {
  if (!isCoseAlgorithm(algorithm)) {
    keyError(
      "key_algorithm",
      `Stored key algorithm ${algorithm} is not supported; expected -8, -7 or -257.`,
    );
  }
  const bytes = typeof spki === "string" ? decodeSpkiText(spki) : spki as Uint8Array<ArrayBuffer>;
  return await importOrRefuse(() =>
    crypto.subtle.importKey("spki", bytes, IMPORT[algorithm], false, ["verify"])
  );
}

function decodeSpkiText(text: string): Uint8Array<ArrayBuffer> {
  try {
    return decodeBase64Url(text) as Uint8Array<ArrayBuffer>;
  } catch {
    return keyError(
      "key_invalid",
      "Stored key is not base64url; expected SPKI bytes or their base64url text.",
    );
  }
}

/**
 * Verifies a WebAuthn signature with a credential key: EdDSA and RS256 as
 * sent, ES256 converted from DER first. One Web Crypto call.
 *
 * @throws {WebAuthnError} with reason `signature_malformed` for an ES256
 *   signature that is not strict DER. A signature that does not verify
 *   returns `false`.
 *
 * @example
 * ```ts
 * import { verifyCredentialSignature } from "./cose.ts";
 * declare const key: CryptoKey, signature: Uint8Array, signed: Uint8Array;
 * const ok = await verifyCredentialSignature(key, -7, signature, signed);
 * ```
 */
export async function verifyCredentialSignature(
  key: WebCryptoKey,
  algorithm: CoseAlgorithm,
  signature: Uint8Array,
  data: Uint8Array,
): Promise<boolean> {
  let sig = signature as Uint8Array<ArrayBuffer>;
  if (algorithm === -7) sig = derToRawEcdsa(signature, 32);
  try {
    return await crypto.subtle.verify(VERIFY[algorithm], key, sig, data as Uint8Array<ArrayBuffer>);
  } catch {
    // A key of another algorithm than `algorithm` (a caller mix-up) fails closed.
    return false;
  }
}
