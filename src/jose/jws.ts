/**
 * JWS compact serialization (RFC 7515) on Web Crypto.
 *
 * @module
 */

import {
  algorithmNotAllowed,
  type Bytes,
  checkMediaType,
  decode,
  encodeJson,
  encoder,
  fail,
  hasUsage,
  isCryptoKey,
  keyInvalid,
  parseHeader,
  rejectCrit,
  splitCompact,
  subtle,
} from "./_common.ts";
import { EC_SIGNATURE_BYTES, JWS_ALGORITHMS, jwsAlgorithmForKey, jwsParams } from "./algorithms.ts";
import { encodeBase64Url } from "./base64url.ts";
import { localHmacOf } from "./_local_hmac.ts";
import type { HmacSha256 } from "../crypto/sha256.ts";
import { timingSafeEqual } from "../crypto/timing_safe_equal.ts";
import type {
  JWSAlgorithm,
  JWSHeader,
  VerifiedJWS,
  VerifyJWSOptions,
  WebCryptoKey,
} from "./types.ts";

/** A key checked once for one JWS operation, with its Web Crypto parameters. */
export interface JWSKey {
  alg: JWSAlgorithm;
  key: WebCryptoKey;
  params: Parameters<typeof crypto.subtle.sign>[0];
  /** The JavaScript HMAC of a key derived here from a secret (no Web Crypto call per token). */
  local?: HmacSha256;
}

/** Checks a key for signing or verifying and pins its algorithm. */
export function prepareJWSKey(key: WebCryptoKey, usage: "sign" | "verify"): JWSKey {
  if (!isCryptoKey(key)) keyInvalid("The JWS key is not a CryptoKey; expected a Web Crypto key.");
  const alg = jwsAlgorithmForKey(key);
  if (usage === "sign" ? key.type === "public" : key.type === "private") {
    keyInvalid(
      usage === "sign"
        ? "A public key cannot sign; expected the private key of the pair."
        : "A private key cannot verify; expected the public key of the pair.",
    );
  }
  if (!hasUsage(key, usage)) {
    keyInvalid(`The key's usages lack "${usage}"; expected a key created with "${usage}".`);
  }
  return { alg, key, params: jwsParams(alg), local: localHmacOf(key) };
}

/** The protected header segment for a header object, after checking what it may carry. */
function jwsHeaderSegment(header: JWSHeader, alg: JWSAlgorithm): string {
  if (typeof header !== "object" || header === null) {
    keyInvalid("The JWS header is not an object; expected { alg, ... }.");
  }
  if (header.alg !== alg) {
    keyInvalid(
      `The header alg ${JSON.stringify(header.alg)} does not match the key; expected "${alg}".`,
    );
  }
  if (header.crit !== undefined || header.b64 !== undefined) {
    fail(
      "ERR_JOSE_UNSUPPORTED_HEADER",
      "The JWS header carries crit or b64; expected neither (no extensions are supported).",
    );
  }
  return encodeJson(header);
}

/** Signs `payload` under an already encoded header segment. */
export async function signWithSegment(
  jwsKey: JWSKey,
  headerSegment: string,
  payload: Uint8Array,
): Promise<string> {
  const signingInput = `${headerSegment}.${encodeBase64Url(payload)}`;
  const bytes = encoder.encode(signingInput);
  const signature = jwsKey.local
    ? jwsKey.local(bytes)
    : new Uint8Array(await subtle.sign(jwsKey.params, jwsKey.key, bytes));
  return `${signingInput}.${encodeBase64Url(signature)}`;
}

/** What a JWS header must satisfy. */
export interface JWSExpectation {
  /** Accepted algorithms on top of the key's pin. */
  algorithms?: readonly JWSAlgorithm[];
  /** Required `typ`. */
  typ?: string;
  /** A header segment known to be valid (one this library made): skips parsing when equal. */
  knownHeader?: { segment: string; header: JWSHeader };
  /** The token's header, already parsed by the caller (to read its `kid`); checked here all the same. */
  parsedHeader?: Record<string, unknown>;
}

/**
 * Verifies a compact JWS. `bytes`, when given, are the UTF-8 bytes of `token`
 * (as they come out of a JWE), used as the signing input without re-encoding.
 */
export async function verifyWithKey(
  jwsKey: JWSKey,
  token: string,
  expect: JWSExpectation,
  bytes?: Bytes,
): Promise<{ header: JWSHeader; payload: Bytes }> {
  const [headerSegment, payloadSegment, signatureSegment] = splitCompact(token, 3);
  let header: JWSHeader;
  if (expect.knownHeader && headerSegment === expect.knownHeader.segment) {
    header = expect.knownHeader.header;
  } else {
    const parsed = expect.parsedHeader ?? parseHeader(headerSegment);
    rejectCrit(parsed);
    // The key pins exactly one algorithm: `none` and algorithm swaps end here.
    if (
      parsed.alg !== jwsKey.alg || (expect.algorithms && !expect.algorithms.includes(jwsKey.alg))
    ) {
      algorithmNotAllowed("alg", parsed.alg);
    }
    checkMediaType(parsed, "typ", expect.typ);
    header = parsed as JWSHeader;
  }
  const signature = decode(signatureSegment);
  // Decoded before the check only to validate the alphabet, so that byte offsets equal char offsets.
  const payload = decode(payloadSegment);
  const expectedLength = EC_SIGNATURE_BYTES[jwsKey.alg];
  if (expectedLength !== undefined && signature.length !== expectedLength) {
    fail("ERR_JWS_SIGNATURE_INVALID", "The signature has the wrong length for its algorithm.");
  }
  const inputLength = headerSegment.length + 1 + payloadSegment.length;
  const signingInput = bytes
    ? bytes.subarray(0, inputLength)
    : encoder.encode(token.slice(0, inputLength));
  let valid: boolean;
  try {
    valid = jwsKey.local
      ? timingSafeEqual(jwsKey.local(signingInput), signature)
      : await subtle.verify(jwsKey.params, jwsKey.key, signature, signingInput);
  } catch {
    valid = false;
  }
  if (!valid) fail("ERR_JWS_SIGNATURE_INVALID", "The JWS signature did not verify.");
  return { header, payload };
}

/**
 * Signs a payload into a JWS compact serialization (RFC 7515 section 7.1).
 *
 * The key decides the algorithm and `header.alg` must name it: an HMAC key
 * gives HS256/384/512 by its hash, RSASSA-PKCS1-v1_5 RS*, RSA-PSS PS*, ECDSA
 * P-256/384/521 ES256/384/512 (raw R || S signatures), Ed25519 EdDSA.
 * `crit` and `b64` are refused.
 *
 * @param payload The bytes (or UTF-8 text) to sign.
 * @param key A secret HMAC key or a private key with the `sign` usage.
 * @param header The protected header; `alg` is required.
 * @returns The compact JWS.
 * @throws {JoseError} `ERR_JOSE_KEY_INVALID` when the key does not fit `header.alg`.
 *
 * @example
 * ```ts
 * import { signCompactJWS } from "@service-stack/auth/jose";
 * const key = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
 * const jws = await signCompactJWS(new TextEncoder().encode("hello"), key, { alg: "HS256" });
 * ```
 */
export function signCompactJWS(
  payload: Uint8Array | string,
  key: WebCryptoKey,
  header: JWSHeader,
): Promise<string> {
  try {
    const jwsKey = prepareJWSKey(key, "sign");
    const segment = jwsHeaderSegment(header, jwsKey.alg);
    const bytes = typeof payload === "string" ? encoder.encode(payload) : payload;
    return signWithSegment(jwsKey, segment, bytes);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Verifies a JWS compact serialization and returns its payload and header.
 *
 * The algorithm is pinned by the key (see {@link signCompactJWS}); a header
 * naming any other algorithm, `none` included, is refused before any crypto,
 * as are `crit` headers, a `typ` other than `options.typ`, malformed segments
 * and tokens over 16 KiB.
 *
 * @param token The compact JWS.
 * @param key A secret HMAC key or a public key with the `verify` usage.
 * @param options `algorithms` to narrow the accepted set, `typ` to require.
 * @returns The verified payload bytes and the protected header.
 * @throws {JoseError} `ERR_JWS_SIGNATURE_INVALID`, `ERR_JOSE_ALG_NOT_ALLOWED`,
 * `ERR_JOSE_UNSUPPORTED_HEADER`, `ERR_JOSE_TYP_MISMATCH`, `ERR_JOSE_INVALID`,
 * `ERR_JOSE_TOO_LARGE`, `ERR_JOSE_KEY_INVALID`.
 *
 * @example
 * ```ts
 * import { signCompactJWS, verifyCompactJWS } from "@service-stack/auth/jose";
 * const key = await crypto.subtle.generateKey(
 *   { name: "HMAC", hash: "SHA-256" },
 *   false,
 *   ["sign", "verify"],
 * );
 * const jws = await signCompactJWS("hello", key, { alg: "HS256", typ: "JWT" });
 * const { payload } = await verifyCompactJWS(jws, key, { typ: "JWT" });
 * new TextDecoder().decode(payload); // "hello"
 * ```
 */
export async function verifyCompactJWS(
  token: string,
  key: WebCryptoKey,
  options: VerifyJWSOptions = {},
): Promise<VerifiedJWS> {
  const jwsKey = prepareJWSKey(key, "verify");
  const algorithms = options.algorithms;
  if (algorithms !== undefined && !algorithms.every((alg) => JWS_ALGORITHMS.includes(alg))) {
    keyInvalid("The algorithms option names an unsupported algorithm; expected JWS algorithms.");
  }
  return await verifyWithKey(jwsKey, token, { algorithms, typ: options.typ });
}

/**
 * The JWS key of an HMAC key `deriveKey` made from a secret: HS256, 256
 * bits, both usages, by construction. None of the checks of
 * {@link prepareJWSKey} can fail for it, so none of them (and none of the
 * algorithm table) comes along with the keys of a secret.
 */
export function derivedJWSKey(key: WebCryptoKey): JWSKey {
  return { alg: "HS256", key, params: { name: "HMAC" }, local: localHmacOf(key) };
}
