/**
 * The JOSE object itself: encode and decode over a key ring, for one mode
 * and purpose. `createJose` and `joseForPurpose` are its public faces.
 *
 * @module
 */

import {
  asciiText,
  type Bytes,
  encoder,
  fail,
  MAX_TOKEN_BYTES,
  parseHeader,
  splitCompact,
  utf8,
} from "./_common.ts";
import { type EncryptionContext, headerFor, type SigningContext, use } from "./_contexts.ts";
import { contextForKid, createKeyRing } from "./_key_ring.ts";
import { type CheckedOptions, checkTolerance } from "./_options.ts";
import { decryptWith, type EncodedHeader, encryptWith } from "./jwe.ts";
import { signWithSegment, verifyWithKey } from "./jws.ts";
import {
  checkClaims,
  checkClaimTypes,
  issueClaims,
  parseClaims,
  parseClaimsSegment,
  serializeClaims,
} from "./jwt.ts";
import type { KeySource } from "./keys.ts";
import type { DecodeOptions, Jose, JoseOptions, JWEContentOptions, JWTPayload } from "./types.ts";

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

/** Whether `token` starts with the header `segment` then a dot, without splitting it. */
function startsWithHeader(token: string, segment: string): boolean {
  return typeof token === "string" && token.length > segment.length &&
    token.charCodeAt(segment.length) === 46 && token.startsWith(segment);
}

function ctyOption(options: JWEContentOptions | undefined): string | undefined {
  const cty = options?.cty;
  if (cty !== undefined && typeof cty !== "string") {
    throw new TypeError("The cty option is not a string; expected a media type.");
  }
  return cty;
}

/** Builds the JOSE object for validated keys and options. */
export function buildJose(
  sources: readonly KeySource[],
  options: CheckedOptions & Pick<JoseOptions, "issuer" | "audience">,
): Jose {
  const { mode, purpose, maxAge, clock, clockTolerance, issuer, audience } = options;
  const typ = purpose === "session" ? "JWT" : `${purpose}+jwt`;
  const { signing, encryption } = createKeyRing(sources, { purpose, typ });
  // Keys whose encryption key derives from the same secret as their signing key (a string or
  // byte secret, or a lone HMAC key): whoever can seal a token under one can sign under the other.
  const selfSealing = sources.map((source) => source.kind === "secret" || source.selfSealing);
  // The first key issues every token; warm calls read `.value` and skip the await.
  const issuing = { signing: signing.contexts[0], encryption: encryption.contexts[0] };

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
    const context = issuing.signing.value ?? await issuing.signing.get();
    return checkSize(
      await signWithSegment(
        use(context.sign),
        context.known.segment,
        encoder.encode(serializeClaims(claims)),
      ),
    );
  }

  /** The warm key whose own header `token` starts with: a token this object made, read without parsing. */
  function signingByHeader(token: string): SigningContext | undefined {
    for (const once of signing.contexts) {
      const context = once.value;
      if (context !== undefined && startsWithHeader(token, context.known.segment)) return context;
    }
    return undefined;
  }

  async function verify(token: string, bytes?: Bytes): Promise<JWTPayload> {
    let context = signingByHeader(token);
    let parsedHeader: Record<string, unknown> | undefined;
    if (context === undefined) {
      parsedHeader = parseHeader(splitCompact(token, 3)[0]);
      context = await contextForKid(signing, parsedHeader.kid);
    }
    const { payload } = await verifyWithKey(
      use(context.verify),
      token,
      { typ, knownHeader: context.known, parsedHeader },
      bytes,
    );
    return parseClaims(payload);
  }

  /** Encrypts under the issuing key; `withTyp` false for `encryptJWE` (text, not a JWT). */
  async function encrypt(
    plaintext: Uint8Array,
    cty: string | undefined,
    withTyp = true,
  ): Promise<string> {
    const context = issuing.encryption.value ?? await issuing.encryption.get();
    const encoded = headerFor(context, withTyp ? typ : undefined, cty);
    return checkSize(
      await encryptWith(
        context.suite,
        use(context.encrypt),
        encoded.header,
        plaintext,
        context.fixedHeader ? encoded : undefined,
      ),
    );
  }

  /**
   * Decrypts a JWE; returns the plaintext and the index of the key that
   * opened it. `typRule` "optional": the outer JWE of a sealed token, whose
   * `typ` may be absent (RFC 7519 A.2); "ignored": `decryptJWE`, whose
   * content is text from any library, never a token of a purpose.
   */
  async function decrypt(
    token: string,
    cty: string | undefined,
    typRule: "required" | "optional" | "ignored" = "required",
  ): Promise<{ plaintext: Bytes; index: number }> {
    // The header this object writes for such content: a token made here is read without parsing.
    const ownTyp = typRule === "ignored" ? undefined : typ;
    let context: EncryptionContext | undefined;
    let knownHeader: EncodedHeader | undefined;
    // As for JWS. ECDH-ES headers differ per token (`epk`), so those always take the lookup.
    for (const once of encryption.contexts) {
      const warm = once.value;
      if (warm === undefined || !warm.fixedHeader) continue;
      const header = headerFor(warm, ownTyp, cty);
      if (startsWithHeader(token, header.segment)) {
        context = warm;
        knownHeader = header;
        break;
      }
    }
    let parsedHeader: Record<string, unknown> | undefined;
    if (context === undefined) {
      parsedHeader = parseHeader(splitCompact(token, 5)[0]);
      context = await contextForKid(encryption, parsedHeader.kid);
      knownHeader = context.fixedHeader ? headerFor(context, ownTyp, cty) : undefined;
    }
    const { plaintext } = await decryptWith(context.suite, use(context.decrypt), token, {
      algorithms: context.algorithms,
      encryptionAlgorithms: context.encryptionAlgorithms,
      typ: ownTyp,
      typMayBeAbsent: typRule === "optional",
      cty: cty ?? null,
      knownHeader,
      parsedHeader,
    });
    return { plaintext, index: encryption.contexts.findIndex((once) => once.value === context) };
  }

  /**
   * The claims of a sealed token's inner JWS. When the key that opened the
   * JWE is self-sealing and the inner header is exactly that key's own, the
   * AES-GCM tag already proved the token was made with this secret: the inner
   * HMAC would check the same secret again, so it is skipped (one Web Crypto
   * call per read instead of two). Any other inner header is verified in full.
   */
  async function innerClaims(plaintext: Bytes, index: number): Promise<JWTPayload> {
    const inner = asciiText(plaintext);
    const own = selfSealing[index] ? signing.contexts[index]?.value : undefined;
    if (own !== undefined && startsWithHeader(inner, own.known.segment)) {
      return parseClaimsSegment(splitCompact(inner, 3)[1]);
    }
    return await verify(inner, plaintext);
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
        claims = parseClaims((await decrypt(token, undefined)).plaintext);
      } else {
        const { plaintext, index } = await decrypt(token, "JWT", "optional");
        claims = await innerClaims(plaintext, index);
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
      return await encrypt(encoder.encode(payload), ctyOption(options), false);
    },

    async decryptJWE(token: string, options?: JWEContentOptions): Promise<string> {
      return utf8((await decrypt(token, ctyOption(options), "ignored")).plaintext);
    },
  };
}
