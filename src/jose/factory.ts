/**
 * `createJose`: one configured JOSE object per key and purpose.
 *
 * @module
 */

import {
  asciiText,
  type Bytes,
  encodeJson,
  encoder,
  fail,
  MAX_TOKEN_BYTES,
  utf8,
} from "./_common.ts";
import { JoseError } from "./errors.ts";
import { jweProfileForKey } from "./algorithms.ts";
import { decryptWithKey, type EncodedHeader, encodeJWEHeader, encryptWithKey } from "./jwe.ts";
import { checkJWEKeyUsage } from "./key_management.ts";
import { type JWSKey, prepareJWSKey, signWithSegment, verifyWithKey } from "./jws.ts";
import { checkClaims, checkClaimTypes, issueClaims, parseClaims, serializeClaims } from "./jwt.ts";
import {
  deriveKey,
  type HkdfBase,
  importHkdfBase,
  type KeySides,
  type KeySource,
  resolveKeySource,
} from "./keys.ts";
import type {
  DecodeOptions,
  Jose,
  JoseOptions,
  JWEAlgorithm,
  JWEContentOptions,
  JWEEncryption,
  JWEHeader,
  JWSHeader,
  JWTKey,
  JWTMode,
  JWTPayload,
} from "./types.ts";

const MODES: readonly JWTMode[] = ["sealed", "signed", "encrypted"];
const THIRTY_DAYS = 30 * 24 * 60 * 60;
const PURPOSE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A key usable for one operation, or why it is not. */
type Usable<T> = { key: T } | { error: Error };

function use<T>(usable: Usable<T>): T {
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

interface SigningContext {
  sign: Usable<JWSKey>;
  verify: Usable<JWSKey>;
  known: { segment: string; header: JWSHeader };
}

interface EncryptionContext {
  encrypt: Usable<CryptoKey>;
  decrypt: Usable<CryptoKey>;
  alg: JWEAlgorithm;
  enc: JWEEncryption;
  /** Whether the header is the same for every message (not so for ECDH-ES: `epk`). */
  fixedHeader: boolean;
  /** The accepted algorithms, pinned to the key. */
  algorithms: JWEAlgorithm[];
  encryptionAlgorithms: JWEEncryption[];
  /** Encoded headers by `cty` (null for none). */
  headers: Map<string | null, EncodedHeader>;
}

function noKey(use: "signing" | "encryption"): Error {
  return new JoseError(
    "ERR_JOSE_KEY_INVALID",
    `This JOSE object has no ${use} key; pass { sign, encrypt } or a string secret to use it.`,
  );
}

function signingContext(sides: KeySides, typ: string): SigningContext {
  const sign = sides.private
    ? attempt(() => prepareJWSKey(sides.private!, "sign"))
    : { error: noSide("sign", "private") };
  const verify = sides.public
    ? attempt(() => prepareJWSKey(sides.public!, "verify"))
    : { error: noSide("verify", "public") };
  const alg = "key" in sign ? sign.key.alg : "key" in verify ? verify.key.alg : undefined;
  const header = { alg, typ } as JWSHeader;
  return { sign, verify, known: { segment: encodeJson(header), header } };
}

function noSide(operation: string, side: string): Error {
  return new JoseError(
    "ERR_JOSE_KEY_INVALID",
    `Cannot ${operation} without the ${side} key; expected a CryptoKeyPair.`,
  );
}

function encryptionContext(sides: KeySides): EncryptionContext {
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
    fixedHeader: !profile.alg.startsWith("ECDH-ES"),
    algorithms: [profile.alg],
    encryptionAlgorithms: [profile.enc],
    headers: new Map(),
  };
}

function headerFor(
  context: EncryptionContext,
  typ: string,
  cty: string | undefined,
): EncodedHeader {
  const id = cty ?? null;
  let encoded = context.headers.get(id);
  if (!encoded) {
    const header: JWEHeader = { alg: context.alg, enc: context.enc };
    if (cty !== undefined) header.cty = cty;
    header.typ = typ;
    encoded = encodeJWEHeader(header);
    // Bounded: one entry per distinct cty the caller uses.
    if (context.headers.size < 16) context.headers.set(id, encoded);
  }
  return encoded;
}

/** Refuses to hand out a token that decoding would refuse for its size. */
function checkSize(token: string): string {
  if (token.length > MAX_TOKEN_BYTES) {
    fail(
      "ERR_JOSE_TOO_LARGE",
      `The token would be ${token.length} bytes; expected at most ${MAX_TOKEN_BYTES} (store less in it).`,
    );
  }
  return token;
}

function checkTolerance(tolerance: number): number {
  if (typeof tolerance !== "number" || !(tolerance >= 0) || !Number.isFinite(tolerance)) {
    throw new TypeError(`The clockTolerance ${tolerance} is invalid; expected seconds >= 0.`);
  }
  return tolerance;
}

function checkOptions(
  options: JoseOptions,
): Required<Pick<JoseOptions, "mode" | "purpose" | "maxAge" | "clock" | "clockTolerance">> {
  const mode = options.mode ?? "sealed";
  if (!MODES.includes(mode)) {
    throw new TypeError(
      `The mode ${JSON.stringify(mode)} is unknown; expected "sealed", "signed" or "encrypted".`,
    );
  }
  const purpose = options.purpose ?? "session";
  if (typeof purpose !== "string" || !PURPOSE.test(purpose)) {
    throw new TypeError(
      `The purpose ${
        JSON.stringify(purpose)
      } is invalid; expected letters, digits, ".", "_" or "-".`,
    );
  }
  const maxAge = options.maxAge ?? THIRTY_DAYS;
  if (typeof maxAge !== "number" || !(maxAge > 0) || !Number.isFinite(maxAge)) {
    throw new TypeError(`The maxAge ${maxAge} is invalid; expected a positive number of seconds.`);
  }
  const clockTolerance = checkTolerance(options.clockTolerance ?? 5);
  const clock = options.clock ?? Date.now;
  if (typeof clock !== "function") {
    throw new TypeError("The clock option is not a function; expected () => milliseconds.");
  }
  return { mode, purpose, maxAge, clock, clockTolerance };
}

/**
 * Creates a JOSE object for one key and one purpose.
 *
 * Synchronous: the key and options are validated now (a secret under 32
 * bytes, or a lone `CryptoKey`/`CryptoKeyPair` in `sealed` mode, throws a
 * `JoseError` with code `ERR_JOSE_KEY_INVALID`); keys are derived or prepared
 * on first use, once.
 *
 * Keys: a string or byte secret derives, with HKDF-SHA-256 (salt `salt` or
 * SHA-256 of the secret; info `@service-stack/auth {purpose} signing|encryption`),
 * an HS256 key and an A256GCM (`dir`) key. A `CryptoKey`, `CryptoKeyPair` or
 * `{ sign, encrypt }` is used as is and pins its algorithm: HMAC gives
 * HS256/384/512, RSASSA-PKCS1-v1_5 RS*, RSA-PSS PS*, ECDSA ES256/384/512,
 * Ed25519 EdDSA, AES-GCM `dir` + A{len}GCM, AES-KW A128KW/A256KW + A256GCM,
 * RSA-OAEP (SHA-256) RSA-OAEP-256 + A256GCM, ECDH ECDH-ES+A256KW + A256GCM.
 * Pairs sign and decrypt with `privateKey`, verify and encrypt with `publicKey`.
 *
 * The `typ` header is `JWT` for purpose `session` and `{purpose}+jwt`
 * otherwise, and decoding checks it on every header, so tokens of one purpose
 * never pass as another even when keys are shared.
 *
 * @param key The secret or keys.
 * @param options Mode, purpose, salt, lifetimes, clock, issuer, audience.
 * @returns The JOSE object.
 *
 * @example
 * ```ts
 * import { createJose } from "@service-stack/auth/jose";
 * const jose = createJose("a-secret-of-at-least-thirty-two-bytes!!");
 * const token = await jose.encodeJWT({ sub: "user-1" });
 * const claims = await jose.decodeJWT(token); // { sub: "user-1", iat, nbf, exp, jti }
 * ```
 */
export function createJose(key: JWTKey, options: JoseOptions = {}): Jose {
  const { mode, purpose, maxAge, clock, clockTolerance } = checkOptions(options);
  const { issuer, audience } = options;
  const source: KeySource = resolveKeySource(key, mode, options.salt);
  const typ = purpose === "session" ? "JWT" : `${purpose}+jwt`;

  let base: Promise<HkdfBase> | undefined;

  /** The key sides for a use: derived from the secret, or the ones given. */
  async function sidesFor(use: "signing" | "encryption"): Promise<KeySides> {
    if (source.kind === "secret") {
      base ??= importHkdfBase(source.secret, source.salt);
      const derived = await deriveKey(await base, purpose, use);
      return { private: derived, public: derived };
    }
    const sides = use === "signing" ? source.sign : source.encrypt;
    if (!sides) throw noKey(use);
    return sides;
  }

  // Each context is built once; `*Ready` lets warm calls skip the await.
  let signingPromise: Promise<SigningContext> | undefined;
  let signingReady: SigningContext | undefined;
  function signing(): Promise<SigningContext> {
    return signingPromise ??= sidesFor("signing")
      .then((sides) => signingReady = signingContext(sides, typ))
      .catch((error) => {
        signingPromise = undefined;
        base = undefined;
        throw error;
      });
  }

  let encryptionPromise: Promise<EncryptionContext> | undefined;
  let encryptionReady: EncryptionContext | undefined;
  function encryption(): Promise<EncryptionContext> {
    return encryptionPromise ??= sidesFor("encryption")
      .then((sides) => encryptionReady = encryptionContext(sides))
      .catch((error) => {
        encryptionPromise = undefined;
        base = undefined;
        throw error;
      });
  }

  function now(options?: DecodeOptions): number {
    const ms = options?.currentDate ? options.currentDate.getTime() : clock();
    // An invalid time would make every expiry comparison false, that is, pass.
    if (typeof ms !== "number" || !Number.isFinite(ms)) {
      throw new TypeError("The current time is not a finite number; expected milliseconds.");
    }
    return Math.floor(ms / 1000);
  }

  function claimChecks(options: DecodeOptions | undefined, requireExp: boolean) {
    return {
      tolerance: checkTolerance(options?.clockTolerance ?? clockTolerance),
      now: now(options),
      requireExp,
      issuer: options?.issuer ?? issuer,
      audience: options?.audience ?? audience,
    };
  }

  async function sign(claims: JWTPayload): Promise<string> {
    const context = signingReady ?? await signing();
    return checkSize(
      await signWithSegment(
        use(context.sign),
        context.known.segment,
        encoder.encode(serializeClaims(claims)),
      ),
    );
  }

  async function verify(token: string, bytes?: Bytes): Promise<JWTPayload> {
    const context = signingReady ?? await signing();
    const { payload } = await verifyWithKey(
      use(context.verify),
      token,
      { typ, knownHeader: context.known },
      bytes,
    );
    return parseClaims(payload);
  }

  async function encrypt(plaintext: Uint8Array, cty: string | undefined): Promise<string> {
    const context = encryptionReady ?? await encryption();
    const encoded = headerFor(context, typ, cty);
    return checkSize(
      await encryptWithKey(
        use(context.encrypt),
        encoded.header,
        plaintext,
        context.fixedHeader ? encoded : undefined,
      ),
    );
  }

  async function decrypt(token: string, cty: string | undefined): Promise<Bytes> {
    const context = encryptionReady ?? await encryption();
    const { plaintext } = await decryptWithKey(use(context.decrypt), token, {
      algorithms: context.algorithms,
      encryptionAlgorithms: context.encryptionAlgorithms,
      typ,
      cty: cty ?? null,
      knownHeader: context.fixedHeader ? headerFor(context, typ, cty) : undefined,
    });
    return plaintext;
  }

  function ctyOption(options: JWEContentOptions | undefined): string | undefined {
    const cty = options?.cty;
    if (cty !== undefined && typeof cty !== "string") {
      throw new TypeError("The cty option is not a string; expected a media type.");
    }
    return cty;
  }

  return {
    async encodeJWT(payload: JWTPayload): Promise<string> {
      const claims = issueClaims(payload, now(), { maxAge, issuer, audience });
      if (mode === "signed") return await sign(claims);
      if (mode === "encrypted") {
        return await encrypt(encoder.encode(serializeClaims(claims)), undefined);
      }
      return await encrypt(encoder.encode(await sign(claims)), "JWT");
    },

    async decodeJWT(token: string, options?: DecodeOptions): Promise<JWTPayload> {
      let claims: JWTPayload;
      if (mode === "signed") {
        claims = await verify(token);
      } else if (mode === "encrypted") {
        claims = parseClaims(await decrypt(token, undefined));
      } else {
        const inner = await decrypt(token, "JWT");
        claims = await verify(asciiText(inner), inner);
      }
      return checkClaims(claims, claimChecks(options, true));
    },

    async signJWS(payload: JWTPayload): Promise<string> {
      return await sign(checkClaimTypes(payload));
    },

    async verifyJWS(token: string, options?: DecodeOptions): Promise<JWTPayload> {
      return checkClaims(await verify(token), claimChecks(options, false));
    },

    async encryptJWE(payload: string, options?: JWEContentOptions): Promise<string> {
      if (typeof payload !== "string") {
        throw new TypeError("The JWE payload is not a string; expected a string.");
      }
      return await encrypt(encoder.encode(payload), ctyOption(options));
    },

    async decryptJWE(token: string, options?: JWEContentOptions): Promise<string> {
      return utf8(await decrypt(token, ctyOption(options)));
    },
  };
}
