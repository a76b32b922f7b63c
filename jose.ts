/**
 * JOSE utilities on Web Crypto, usable on their own: compact JWS and JWE,
 * JWT claims, and {@link createJose}, the configured object the
 * authentication core uses for its tokens (one key, or a list of keys to
 * rotate them). {@link joseForPurpose} picks the protection each kind of
 * token gets from the key given; {@link secretLooksWeak} flags typed secrets;
 * {@link verifyAccessToken} lets another service verify the access tokens
 * an auth service issues (RFC 9068, from its JWKS).
 *
 * ```ts
 * import { createJose } from "@service-stack/auth/jose";
 * const jose = createJose("a-secret-of-at-least-thirty-two-bytes!!");
 * const token = await jose.encodeJWT({ sub: "user-1" });
 * const claims = await jose.decodeJWT(token);
 * ```
 *
 * @module
 */

export { MAX_TOKEN_BYTES } from "./src/jose/_common.ts";
export { decodeBase64Url, encodeBase64Url } from "./src/jose/base64url.ts";
export { JoseError, type JoseErrorCode } from "./src/jose/errors.ts";
export { createJose } from "./src/jose/factory.ts";
export { joseForPurpose, type PurposeOptions, type TokenPurpose } from "./src/jose/for_purpose.ts";
export { signCompactJWS, verifyCompactJWS } from "./src/jose/jws.ts";
export { decryptCompactJWE, encryptCompactJWE } from "./src/jose/jwe.ts";
export { secretLooksWeak } from "./src/jose/weak_secret.ts";
export type {
  CryptoSecret,
  DecodeOptions,
  DecryptedJWE,
  DecryptJWEOptions,
  EphemeralPublicKey,
  Jose,
  JoseOptions,
  JWEAlgorithm,
  JWEContentOptions,
  JWEEncryption,
  JWEHeader,
  JWSAlgorithm,
  JWSHeader,
  JWTKey,
  JWTMode,
  JWTPayload,
  VerifiedJWS,
  VerifyJWSOptions,
  WebCryptoKey,
  WebCryptoKeyPair,
} from "./src/jose/types.ts";
export {
  ACCESS_TOKEN_CLOCK_TOLERANCE,
  type AccessTokenClaims,
  verifyAccessToken,
  type VerifyAccessTokenOptions,
} from "./src/jose/access_token.ts";
