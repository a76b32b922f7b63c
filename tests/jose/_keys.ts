/**
 * Key helpers for the JOSE tests: JWK import and fresh keys for every algorithm.
 *
 * @module
 */

import { decodeBase64Url, type JWEAlgorithm, type JWSAlgorithm } from "../../jose.ts";

/** A JWK as plain strings. */
export type Jwk = Record<string, string>;

const PRIVATE_MEMBERS = new Set(["d", "p", "q", "dp", "dq", "qi"]);

/** The public members of a private JWK. */
export function publicJwk(jwk: Jwk): Jwk {
  return Object.fromEntries(Object.entries(jwk).filter(([name]) => !PRIVATE_MEMBERS.has(name)));
}

/** Imports a JWK. */
export function importJwk(
  jwk: Jwk,
  algorithm: AlgorithmIdentifier | RsaHashedImportParams | EcKeyImportParams | HmacImportParams,
  usages: KeyUsage[],
): Promise<CryptoKey> {
  return crypto.subtle.importKey("jwk", jwk, algorithm, false, usages);
}

/** Imports the private and public halves of a private JWK. */
export async function importPair(
  jwk: Jwk,
  algorithm: RsaHashedImportParams | EcKeyImportParams | AlgorithmIdentifier,
  privateUsages: KeyUsage[],
  publicUsages: KeyUsage[],
): Promise<CryptoKeyPair> {
  return {
    privateKey: await importJwk(jwk, algorithm, privateUsages),
    publicKey: await importJwk(publicJwk(jwk), algorithm, publicUsages),
  };
}

/** The raw bytes of an `oct` JWK. */
export function octBytes(jwk: Jwk): Uint8Array<ArrayBuffer> {
  return decodeBase64Url(jwk.k) as Uint8Array<ArrayBuffer>;
}

const RSA = { modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };

/** Web Crypto parameters that generate a key for a JWS algorithm. */
function jwsKeyParams(
  alg: JWSAlgorithm,
): AlgorithmIdentifier | RsaHashedKeyGenParams | EcKeyGenParams | HmacKeyGenParams {
  const bits = alg.slice(2);
  switch (alg.slice(0, 2)) {
    case "HS":
      return { name: "HMAC", hash: `SHA-${bits}` };
    case "RS":
      return { name: "RSASSA-PKCS1-v1_5", hash: `SHA-${bits}`, ...RSA };
    case "PS":
      return { name: "RSA-PSS", hash: `SHA-${bits}`, ...RSA };
    case "ES":
      return { name: "ECDSA", namedCurve: bits === "512" ? "P-521" : `P-${bits}` };
    default:
      return { name: "Ed25519" };
  }
}

const jwsCache = new Map<JWSAlgorithm, Promise<{ sign: CryptoKey; verify: CryptoKey }>>();

/** A signing key (made once per algorithm): the same key twice for HMAC, else a pair's halves. */
export function jwsKeys(alg: JWSAlgorithm): Promise<{ sign: CryptoKey; verify: CryptoKey }> {
  let keys = jwsCache.get(alg);
  if (!keys) jwsCache.set(alg, keys = makeJwsKeys(alg));
  return keys;
}

async function makeJwsKeys(alg: JWSAlgorithm): Promise<{ sign: CryptoKey; verify: CryptoKey }> {
  const made = await crypto.subtle.generateKey(jwsKeyParams(alg), false, ["sign", "verify"]);
  return "privateKey" in made
    ? { sign: made.privateKey, verify: made.publicKey }
    : { sign: made, verify: made };
}

let rsaOaep: Promise<CryptoKeyPair> | undefined;

/** A key for a JWE algorithm (one RSA pair is reused): `dir` gets bytes so that every `enc` can use it. */
export async function jweKeys(
  alg: JWEAlgorithm,
  cekBytes: number,
): Promise<
  { encrypt: CryptoKey | Uint8Array<ArrayBuffer>; decrypt: CryptoKey | Uint8Array<ArrayBuffer> }
> {
  switch (alg) {
    case "dir": {
      const bytes = crypto.getRandomValues(new Uint8Array(cekBytes));
      return { encrypt: bytes, decrypt: bytes };
    }
    case "A128KW":
    case "A256KW": {
      const key = await crypto.subtle.generateKey(
        { name: "AES-KW", length: alg === "A128KW" ? 128 : 256 },
        false,
        ["wrapKey", "unwrapKey"],
      );
      return { encrypt: key, decrypt: key };
    }
    case "RSA-OAEP-256": {
      const pair = await (rsaOaep ??= crypto.subtle.generateKey(
        { name: "RSA-OAEP", hash: "SHA-256", ...RSA },
        false,
        ["encrypt", "decrypt"],
      ));
      return { encrypt: pair.publicKey, decrypt: pair.privateKey };
    }
    default: {
      const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, [
        "deriveBits",
      ]);
      return { encrypt: pair.publicKey, decrypt: pair.privateKey };
    }
  }
}

const encoder = new TextEncoder();

/** The keys `createJose` derives, rebuilt from the documented HKDF construction. */
export async function documentedKeys(secret: string, purpose: string, salt?: string) {
  const ikm = encoder.encode(secret);
  const saltBytes = salt === undefined
    ? new Uint8Array(await crypto.subtle.digest("SHA-256", ikm))
    : encoder.encode(salt);
  const base = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  const bits = (use: string) =>
    crypto.subtle.deriveBits(
      {
        name: "HKDF",
        hash: "SHA-256",
        salt: saltBytes,
        info: encoder.encode(`@service-stack/auth ${purpose} ${use}`),
      },
      base,
      256,
    );
  return {
    sign: await crypto.subtle.importKey(
      "raw",
      await bits("signing"),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    ),
    encrypt: await crypto.subtle.importKey("raw", await bits("encryption"), "AES-GCM", false, [
      "encrypt",
      "decrypt",
    ]),
  };
}
