/**
 * Algorithm tables, and the algorithm each kind of Web Crypto key pins.
 *
 * @module
 */

import { keyInvalid } from "./_common.ts";
import type { JWEAlgorithm, JWEEncryption, JWSAlgorithm } from "./types.ts";

/** Every supported JWS algorithm. */
export const JWS_ALGORITHMS: readonly JWSAlgorithm[] = [
  "HS256",
  "HS384",
  "HS512",
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
];

/** Every supported JWE key management algorithm. */
export const JWE_ALGORITHMS: readonly JWEAlgorithm[] = [
  "dir",
  "A128KW",
  "A256KW",
  "RSA-OAEP-256",
  "ECDH-ES",
  "ECDH-ES+A128KW",
  "ECDH-ES+A256KW",
];

/** Every supported JWE content encryption algorithm. */
export const JWE_ENCRYPTIONS: readonly JWEEncryption[] = [
  "A128GCM",
  "A192GCM",
  "A256GCM",
  "A128CBC-HS256",
  "A192CBC-HS384",
  "A256CBC-HS512",
];

/** Shape of a content encryption algorithm. */
export interface ContentSpec {
  gcm: boolean;
  keyBytes: number;
  ivBytes: number;
  tagBytes: number;
  /** HMAC hash of the CBC-HS family. */
  hash: string;
}

export const CONTENT: Readonly<Record<JWEEncryption, ContentSpec>> = {
  A128GCM: { gcm: true, keyBytes: 16, ivBytes: 12, tagBytes: 16, hash: "" },
  A192GCM: { gcm: true, keyBytes: 24, ivBytes: 12, tagBytes: 16, hash: "" },
  A256GCM: { gcm: true, keyBytes: 32, ivBytes: 12, tagBytes: 16, hash: "" },
  "A128CBC-HS256": { gcm: false, keyBytes: 32, ivBytes: 16, tagBytes: 16, hash: "SHA-256" },
  "A192CBC-HS384": { gcm: false, keyBytes: 48, ivBytes: 16, tagBytes: 24, hash: "SHA-384" },
  "A256CBC-HS512": { gcm: false, keyBytes: 64, ivBytes: 16, tagBytes: 32, hash: "SHA-512" },
};

const HASH_BITS: Record<string, number> = { "SHA-256": 256, "SHA-384": 384, "SHA-512": 512 };
const CURVE_JWS: Record<string, JWSAlgorithm> = {
  "P-256": "ES256",
  "P-384": "ES384",
  "P-521": "ES512",
};
/** ECDSA signature length (raw R || S) per algorithm. */
export const EC_SIGNATURE_BYTES: Partial<Record<JWSAlgorithm, number>> = {
  ES256: 64,
  ES384: 96,
  ES512: 132,
};

function hashOf(key: CryptoKey): string {
  const hash = (key.algorithm as { hash?: string | { name: string } }).hash;
  return typeof hash === "string" ? hash : hash?.name ?? "";
}

function bitsOfHash(hash: string): number {
  const bits = HASH_BITS[hash];
  if (bits === undefined) {
    keyInvalid(`The key uses hash ${hash}; expected SHA-256, SHA-384 or SHA-512.`);
  }
  return bits;
}

function checkRsaSize(key: CryptoKey): void {
  const bits = (key.algorithm as RsaHashedKeyAlgorithm).modulusLength;
  if (!(bits >= 2048)) {
    keyInvalid(`The RSA key has a ${bits}-bit modulus; expected at least 2048 bits.`);
  }
}

/** The single JWS algorithm a key can be used with; throws for keys that cannot sign. */
export function jwsAlgorithmForKey(key: CryptoKey): JWSAlgorithm {
  const name = key.algorithm.name;
  switch (name) {
    case "HMAC": {
      const bits = bitsOfHash(hashOf(key));
      // RFC 7518 3.2: the key must be at least as long as the hash output.
      if ((key.algorithm as HmacKeyAlgorithm).length < bits) {
        keyInvalid(`The HMAC key is shorter than ${bits} bits; expected at least the hash size.`);
      }
      return `HS${bits}` as JWSAlgorithm;
    }
    case "RSASSA-PKCS1-v1_5":
      checkRsaSize(key);
      return `RS${bitsOfHash(hashOf(key))}` as JWSAlgorithm;
    case "RSA-PSS":
      checkRsaSize(key);
      return `PS${bitsOfHash(hashOf(key))}` as JWSAlgorithm;
    case "ECDSA": {
      const curve = (key.algorithm as EcKeyAlgorithm).namedCurve;
      const alg = CURVE_JWS[curve];
      if (!alg) keyInvalid(`The ECDSA key is on ${curve}; expected P-256, P-384 or P-521.`);
      return alg;
    }
    case "Ed25519":
      return "EdDSA";
    default:
      return keyInvalid(
        `A ${name} key cannot sign JWS; expected an HMAC, RSASSA-PKCS1-v1_5, RSA-PSS, ECDSA or Ed25519 key.`,
      );
  }
}

/** Web Crypto parameters for `sign`/`verify` with a JWS algorithm. */
export function jwsParams(alg: JWSAlgorithm): Algorithm {
  switch (alg) {
    case "HS256":
    case "HS384":
    case "HS512":
      return { name: "HMAC" };
    case "RS256":
    case "RS384":
    case "RS512":
      return { name: "RSASSA-PKCS1-v1_5" };
    case "PS256":
    case "PS384":
    case "PS512":
      // RFC 7518 3.5: salt length equals the hash output length.
      return { name: "RSA-PSS", saltLength: Number(alg.slice(2)) >> 3 } as RsaPssParams;
    case "ES256":
    case "ES384":
    case "ES512":
      return { name: "ECDSA", hash: `SHA-${alg.slice(2)}` } as EcdsaParams;
    case "EdDSA":
      return { name: "Ed25519" };
  }
}

/** What a Web Crypto key allows for JWE, and what it uses by default. */
export interface JWEKeyProfile {
  algorithms: JWEAlgorithm[];
  encryptionAlgorithms: JWEEncryption[];
  alg: JWEAlgorithm;
  enc: JWEEncryption;
}

const EC_CURVES = new Set(["P-256", "P-384", "P-521"]);

/** The JWE algorithms a key can be used with; throws for keys that cannot encrypt. */
export function jweProfileForKey(key: CryptoKey): JWEKeyProfile {
  const name = key.algorithm.name;
  const all = [...JWE_ENCRYPTIONS];
  switch (name) {
    case "AES-GCM": {
      const bits = (key.algorithm as AesKeyAlgorithm).length;
      const enc = `A${bits}GCM` as JWEEncryption;
      return { algorithms: ["dir"], encryptionAlgorithms: [enc], alg: "dir", enc };
    }
    case "AES-KW": {
      const bits = (key.algorithm as AesKeyAlgorithm).length;
      if (bits !== 128 && bits !== 256) {
        keyInvalid(`The AES-KW key has ${bits} bits; expected 128 (A128KW) or 256 (A256KW).`);
      }
      const alg = `A${bits}KW` as JWEAlgorithm;
      return { algorithms: [alg], encryptionAlgorithms: all, alg, enc: "A256GCM" };
    }
    case "RSA-OAEP": {
      if (hashOf(key) !== "SHA-256") {
        keyInvalid(`The RSA-OAEP key uses ${hashOf(key)}; expected SHA-256 (RSA-OAEP-256).`);
      }
      checkRsaSize(key);
      return {
        algorithms: ["RSA-OAEP-256"],
        encryptionAlgorithms: all,
        alg: "RSA-OAEP-256",
        enc: "A256GCM",
      };
    }
    case "ECDH": {
      const curve = (key.algorithm as EcKeyAlgorithm).namedCurve;
      if (!EC_CURVES.has(curve)) {
        keyInvalid(`The ECDH key is on ${curve}; expected P-256, P-384 or P-521.`);
      }
      return {
        algorithms: ["ECDH-ES", "ECDH-ES+A128KW", "ECDH-ES+A256KW"],
        encryptionAlgorithms: all,
        alg: "ECDH-ES+A256KW",
        enc: "A256GCM",
      };
    }
    default:
      return keyInvalid(
        `A ${name} key cannot encrypt JWE; expected an AES-GCM, AES-KW, RSA-OAEP or ECDH key.`,
      );
  }
}

/** The JWE algorithms a raw byte key of this length can be used with. */
export function jweProfileForBytes(length: number): JWEKeyProfile {
  const encryptionAlgorithms = JWE_ENCRYPTIONS.filter((enc) => CONTENT[enc].keyBytes === length);
  const algorithms: JWEAlgorithm[] = encryptionAlgorithms.length > 0 ? ["dir"] : [];
  if (length === 16) algorithms.push("A128KW");
  if (length === 32) algorithms.push("A256KW");
  if (algorithms.length === 0) {
    keyInvalid(
      `A ${length}-byte key fits no JWE algorithm; expected 16, 24, 32, 48 or 64 bytes.`,
    );
  }
  const kw = length === 16 || length === 32;
  return {
    algorithms,
    encryptionAlgorithms: kw ? [...JWE_ENCRYPTIONS] : encryptionAlgorithms,
    alg: algorithms[0],
    enc: encryptionAlgorithms[0] ?? "A256GCM",
  };
}
