/**
 * What `createJose` prepares once per key: the checked JWS keys with their
 * encoded header, and the JWE keys with their algorithms and encoded headers.
 *
 * @module
 */

import { encodeJson } from "./_common.ts";
import { JoseError } from "./errors.ts";
import { jweProfileForKey } from "./algorithms.ts";
import { type EncodedHeader, encodeJWEHeader } from "./jwe.ts";
import { checkJWEKeyUsage } from "./key_management.ts";
import { type JWSKey, prepareJWSKey } from "./jws.ts";
import type { KeySides } from "./keys.ts";
import type { JWEAlgorithm, JWEEncryption, JWEHeader, JWSHeader } from "./types.ts";

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

/** Checks the sides of a signing key and encodes the header it writes (`kid` when the key has one). */
export function signingContext(
  sides: KeySides,
  header: { typ: string; kid: string | null },
): SigningContext {
  const sign = sides.private
    ? attempt(() => prepareJWSKey(sides.private!, "sign"))
    : { error: noSide("sign", "private") };
  const verify = sides.public
    ? attempt(() => prepareJWSKey(sides.public!, "verify"))
    : { error: noSide("verify", "public") };
  const alg = "key" in sign ? sign.key.alg : "key" in verify ? verify.key.alg : undefined;
  const written = { alg } as JWSHeader;
  if (header.kid !== null) written.kid = header.kid;
  written.typ = header.typ;
  return { sign, verify, known: { segment: encodeJson(written), header: written } };
}

/** The encryption key of one JOSE object, ready to use. */
export interface EncryptionContext {
  encrypt: Usable<CryptoKey>;
  decrypt: Usable<CryptoKey>;
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
}

/** Checks the sides of an encryption key and picks the algorithms it pins. */
export function encryptionContext(sides: KeySides, kid: string | null): EncryptionContext {
  const profile = jweProfileForKey((sides.public ?? sides.private)!);
  const encrypt: Usable<CryptoKey> = sides.public
    ? attempt(() => (checkJWEKeyUsage(sides.public!, "encrypt"), sides.public!))
    : { error: noSide("encrypt", "public") };
  const decrypt: Usable<CryptoKey> = sides.private
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
