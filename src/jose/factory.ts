/**
 * `createJose`: one configured JOSE object per key and purpose.
 *
 * @module
 */

import { asciiText, type Bytes, encoder, fail, MAX_TOKEN_BYTES, utf8 } from "./_common.ts";
import { encryptionContext, headerFor, signingContext, use } from "./_contexts.ts";
import { lazy } from "./_lazy.ts";
import { checkOptions, checkTolerance } from "./_options.ts";
import { JoseError } from "./errors.ts";
import { decryptWithKey, encryptWithKey } from "./jwe.ts";
import { signWithSegment, verifyWithKey } from "./jws.ts";
import { checkClaims, checkClaimTypes, issueClaims, parseClaims, serializeClaims } from "./jwt.ts";
import {
  deriveKey,
  importHkdfBase,
  type KeySides,
  type KeySource,
  resolveKeySource,
} from "./keys.ts";
import type {
  DecodeOptions,
  Jose,
  JoseOptions,
  JWEContentOptions,
  JWTKey,
  JWTPayload,
} from "./types.ts";

function noKey(use: "signing" | "encryption"): Error {
  return new JoseError(
    "ERR_JOSE_KEY_INVALID",
    `This JOSE object has no ${use} key; pass { sign, encrypt } or a string secret to use it.`,
  );
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

  const base = source.kind === "secret"
    ? lazy(() => importHkdfBase(source.secret, source.salt))
    : undefined;

  /** The key sides for a use: derived from the secret, or the ones given. */
  async function sidesFor(use: "signing" | "encryption"): Promise<KeySides> {
    if (source.kind === "secret") {
      const derived = await deriveKey(base!.value ?? await base!.get(), purpose, use);
      return { private: derived, public: derived };
    }
    const sides = use === "signing" ? source.sign : source.encrypt;
    if (!sides) throw noKey(use);
    return sides;
  }

  // Each context is built once; warm calls read `.value` and skip the await.
  const signing = lazy(async () => signingContext(await sidesFor("signing"), typ));
  const encryption = lazy(async () => encryptionContext(await sidesFor("encryption")));

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
    const context = signing.value ?? await signing.get();
    return checkSize(
      await signWithSegment(
        use(context.sign),
        context.known.segment,
        encoder.encode(serializeClaims(claims)),
      ),
    );
  }

  async function verify(token: string, bytes?: Bytes): Promise<JWTPayload> {
    const context = signing.value ?? await signing.get();
    const { payload } = await verifyWithKey(
      use(context.verify),
      token,
      { typ, knownHeader: context.known },
      bytes,
    );
    return parseClaims(payload);
  }

  async function encrypt(plaintext: Uint8Array, cty: string | undefined): Promise<string> {
    const context = encryption.value ?? await encryption.get();
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
    const context = encryption.value ?? await encryption.get();
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
