/**
 * What `createJose` prepares once per key: the checked JWS keys with their
 * encoded header, and the JWE keys with their algorithms and encoded headers.
 * The keys derived from a secret have their own, shorter path: their
 * algorithms are known (HS256, `dir` + A256GCM), so none of the per-key
 * checks of Web Crypto keys comes along with them.
 *
 * @module
 */

import { encodeJson } from "./_common.ts";
import { JoseError } from "./errors.ts";
import { jweProfileForKey } from "./algorithms.ts";
import {
  DIRECT_A256GCM,
  type EncodedHeader,
  encodeJWEHeader,
  EVERY_ALGORITHM,
  type JWESuite,
} from "./jwe.ts";
import { checkJWEKeyUsage } from "./key_management.ts";
import { derivedJWSKey, type JWSKey } from "./jws.ts";
import type { JWEAlgorithm, JWEEncryption, JWEHeader, JWSHeader, WebCryptoKey } from "./types.ts";

/** The two sides of a key: the one that signs/decrypts and the one that verifies/encrypts. */
export interface KeySides {
  /** Secret or private key: signs, decrypts. */
  private?: WebCryptoKey;
  /** Secret or public key: verifies, encrypts. */
  public?: WebCryptoKey;
}

/** A key usable for one operation, or why it is not (a public key cannot sign). */
export type Usable<T> = { key: T } | { error: Error };

/** The key, or the error that says why there is none. */
export function use<T>(usable: Usable<T>): T {
  if ("error" in usable) throw usable.error;
  return usable.key;
}

function attempt<T>(make: () => T): Usable<T> {
  try {
    return { key: make() };
  } catch (error) {
    return { error: error as Error };
  }
}

function noSide(operation: string, side: string): Error {
  return new JoseError(
    "ERR_JOSE_KEY_INVALID",
    `Cannot ${operation} without the ${side} key; expected a CryptoKeyPair.`,
  );
}

/** The signing key of one JOSE object, ready to use. */
export interface SigningContext {
  sign: Usable<JWSKey>;
  verify: Usable<JWSKey>;
  /** The header every token gets, and its encoded segment. */
  known: { segment: string; header: JWSHeader };
}

/** What a signing context writes in every header: its `typ`, and its `kid` unless null. */
export interface SigningHeader {
  typ: string;
  kid: string | null;
}

function knownHeader(alg: JWSHeader["alg"] | undefined, header: SigningHeader) {
  const written = { alg } as JWSHeader;
  if (header.kid !== null) written.kid = header.kid;
  written.typ = header.typ;
  return { segment: encodeJson(written), header: written };
}

/**
 * Checks the sides of a signing key with `prepare` (`prepareJWSKey`, which
 * pins the algorithm) and encodes the header it writes.
 */
export function signingContext(
  sides: KeySides,
  header: SigningHeader,
  prepare: (key: WebCryptoKey, usage: "sign" | "verify") => JWSKey,
): SigningContext {
  const sign = sides.private
    ? attempt(() => prepare(sides.private!, "sign"))
    : { error: noSide("sign", "private") };
  const verify = sides.public
    ? attempt(() => prepare(sides.public!, "verify"))
    : { error: noSide("verify", "public") };
  const alg = "key" in sign ? sign.key.alg : "key" in verify ? verify.key.alg : undefined;
  return { sign, verify, known: knownHeader(alg, header) };
}

/** The signing context of a key derived from a secret (HS256, see `derivedJWSKey`). */
export function derivedSigningContext(key: WebCryptoKey, header: SigningHeader): SigningContext {
  const jwsKey = derivedJWSKey(key);
  return { sign: { key: jwsKey }, verify: { key: jwsKey }, known: knownHeader("HS256", header) };
}

/** The encryption key of one JOSE object, ready to use. */
export interface EncryptionContext {
  encrypt: Usable<WebCryptoKey>;
  decrypt: Usable<WebCryptoKey>;
  alg: JWEAlgorithm;
  enc: JWEEncryption;
  /** The key id written in every header; null for none. */
  kid: string | null;
  /** Whether the header is the same for every message (not so for ECDH-ES: `epk`). */
  fixedHeader: boolean;
  /** The accepted algorithms, pinned to the key. */
  algorithms: JWEAlgorithm[];
  encryptionAlgorithms: JWEEncryption[];
  /** Encoded headers by `typ` and `cty` (see {@link headerFor}). */
  headers: Map<string, EncodedHeader>;
  /** The JWE algorithms its key runs. */
  suite: JWESuite;
}

/** Checks the sides of a Web Crypto encryption key and picks the algorithms it pins. */
export function encryptionContext(sides: KeySides, kid: string | null): EncryptionContext {
  const profile = jweProfileForKey((sides.public ?? sides.private)!);
  const encrypt: Usable<WebCryptoKey> = sides.public
    ? attempt(() => (checkJWEKeyUsage(sides.public!, "encrypt"), sides.public!))
    : { error: noSide("encrypt", "public") };
  const decrypt: Usable<WebCryptoKey> = sides.private
    ? attempt(() => (checkJWEKeyUsage(sides.private!, "decrypt"), sides.private!))
    : { error: noSide("decrypt", "private") };
  return {
    encrypt,
    decrypt,
    alg: profile.alg,
    enc: profile.enc,
    kid,
    fixedHeader: !profile.alg.startsWith("ECDH-ES"),
    algorithms: [profile.alg],
    encryptionAlgorithms: [profile.enc],
    headers: new Map(),
    suite: EVERY_ALGORITHM,
  };
}

/**
 * The encryption context of a key derived from a secret: AES-GCM of 256
 * bits with both usages, as `deriveKey` makes it, so `dir` + A256GCM.
 */
export function derivedEncryptionContext(key: WebCryptoKey, kid: string | null): EncryptionContext {
  return {
    encrypt: { key },
    decrypt: { key },
    alg: "dir",
    enc: "A256GCM",
    kid,
    fixedHeader: true,
    algorithms: ["dir"],
    encryptionAlgorithms: ["A256GCM"],
    headers: new Map(),
    suite: DIRECT_A256GCM,
  };
}

/**
 * The encoded header for a `typ` and a `cty` (undefined for none), made once
 * per pair.
 */
export function headerFor(
  context: EncryptionContext,
  typ: string | undefined,
  cty: string | undefined,
): EncodedHeader {
  // `typ` is the library's own (no newline), so the first newline ends it.
  const id = `${typ === undefined ? "-" : `+${typ}`}\n${cty === undefined ? "-" : `+${cty}`}`;
  let encoded = context.headers.get(id);
  if (!encoded) {
    const header: JWEHeader = { alg: context.alg, enc: context.enc };
    if (context.kid !== null) header.kid = context.kid;
    if (cty !== undefined) header.cty = cty;
    if (typ !== undefined) header.typ = typ;
    encoded = encodeJWEHeader(header);
    // Bounded: one entry per distinct typ and cty the caller uses.
    if (context.headers.size < 16) context.headers.set(id, encoded);
  }
  return encoded;
}
