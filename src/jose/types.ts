/**
 * Public types of the JOSE layer.
 *
 * @module
 */

/**
 * How `encodeJWT` protects a token: `sealed` signs then encrypts (a JWS nested
 * in a JWE with `cty: "JWT"`), `signed` only signs, `encrypted` only encrypts.
 */
export type JWTMode = "sealed" | "signed" | "encrypted";

/**
 * A Web Crypto key: the global `CryptoKey`, named through `crypto.subtle` so
 * that the published types compile without the DOM lib (Node's types declare
 * `crypto` but, before Node 22's, no global `CryptoKey`).
 *
 * @example
 * ```ts
 * import type { WebCryptoKey } from "@service-stack/auth/jose";
 *
 * const key: WebCryptoKey = await crypto.subtle.generateKey(
 *   { name: "HMAC", hash: "SHA-256" },
 *   false,
 *   ["sign", "verify"],
 * );
 * ```
 */
export type WebCryptoKey = Parameters<typeof crypto.subtle.sign>[1];

/**
 * A Web Crypto key pair (the global `CryptoKeyPair`), without the DOM lib.
 *
 * @example
 * ```ts
 * import type { WebCryptoKeyPair } from "@service-stack/auth/jose";
 *
 * const pair: WebCryptoKeyPair = await crypto.subtle.generateKey(
 *   { name: "ECDSA", namedCurve: "P-256" },
 *   false,
 *   ["sign", "verify"],
 * );
 * ```
 */
export interface WebCryptoKeyPair {
  /** The private half. */
  privateKey: WebCryptoKey;
  /** The public half. */
  publicKey: WebCryptoKey;
}

/**
 * Separate keys for signing and for encryption, as `sealed` mode needs when
 * the keys are Web Crypto keys rather than a secret to derive from.
 */
export interface CryptoSecret {
  /** The signing key: an HMAC key, or a private/public pair for RS, PS, ES or EdDSA. */
  sign: WebCryptoKey | WebCryptoKeyPair;
  /** The encryption key: AES-GCM, AES-KW, or an RSA-OAEP or ECDH pair. */
  encrypt: WebCryptoKey | WebCryptoKeyPair;
}

/** Any key `createJose` accepts. Strings and byte arrays are secrets of at least 32 bytes. */
export type JWTKey = string | Uint8Array | WebCryptoKey | WebCryptoKeyPair | CryptoSecret;

/** The claims of a JWT (RFC 7519 section 4). */
export interface JWTPayload {
  /** Issuer. */
  iss?: string;
  /** Subject. */
  sub?: string;
  /** Audience. */
  aud?: string | string[];
  /** Expiration time, seconds since the epoch. */
  exp?: number;
  /** Not-before time, seconds since the epoch. */
  nbf?: number;
  /** Issued-at time, seconds since the epoch. */
  iat?: number;
  /** Unique token id. */
  jti?: string;
  /** Any other claim. */
  [claim: string]: unknown;
}

/** Options of {@link createJose}. */
export interface JoseOptions {
  /** How tokens are protected; default `"sealed"`. */
  mode?: JWTMode;
  /** HKDF salt for string and byte secrets; default SHA-256 of the secret. */
  salt?: string | Uint8Array;
  /**
   * What the tokens are for; default `"session"`. Namespaces the derived keys
   * and the `typ` header: `"session"` gives `typ: "JWT"`, any other purpose
   * `p` gives `typ: "p+jwt"`.
   */
  purpose?: string;
  /** Default lifetime in seconds of tokens from `encodeJWT`; default 30 days. */
  maxAge?: number;
  /** Current time in milliseconds since the epoch; default `Date.now`. */
  clock?: () => number;
  /** Leeway in seconds for `exp` and `nbf`; default 5. */
  clockTolerance?: number;
  /** Issuer set on encode and required on decode. */
  issuer?: string;
  /** Audience set on encode and required on decode. */
  audience?: string;
}

/** Per-call options of `decodeJWT` and `verifyJWS`. */
export interface DecodeOptions {
  /** Required `iss`; overrides the factory's `issuer`. */
  issuer?: string;
  /** Required audience; overrides the factory's `audience`. */
  audience?: string;
  /** Leeway in seconds for `exp` and `nbf`; overrides the factory's. */
  clockTolerance?: number;
  /** The time to check `exp` and `nbf` against; default the factory's clock. */
  currentDate?: Date;
}

/** Options of `encryptJWE` and `decryptJWE`. */
export interface JWEContentOptions {
  /**
   * The `cty` header. On encrypt it is written; on decrypt the token's `cty`
   * must equal it, and when it is not given the token must have no `cty`.
   */
  cty?: string;
}

/** The JOSE object returned by {@link createJose}. */
export interface Jose {
  /** Adds `iat`, `nbf`, `exp` and `jti`, then signs and/or encrypts per the mode. */
  encodeJWT(payload: JWTPayload): Promise<string>;
  /** Opens a token made by `encodeJWT` and checks `typ`/`cty`, `exp`, `nbf`, `iss`, `aud`. */
  decodeJWT(token: string, options?: DecodeOptions): Promise<JWTPayload>;
  /** Signs the payload as given into a compact JWS. */
  signJWS(payload: JWTPayload): Promise<string>;
  /** Verifies a compact JWS and checks `exp`, `nbf` (when present), `iss` and `aud`. */
  verifyJWS(token: string, options?: DecodeOptions): Promise<JWTPayload>;
  /**
   * Encrypts a string into a compact JWE. The content is text, not a JWT:
   * the header has no `typ` (only `cty` when asked), so the token never
   * passes for one of `decodeJWT`'s tokens in `encrypted` mode.
   */
  encryptJWE(payload: string, options?: JWEContentOptions): Promise<string>;
  /**
   * Decrypts a compact JWE into a string, from this object or any
   * conformant library (RFC 7516): a `typ` header, present or not, is not
   * read; `cty` is checked as {@link JWEContentOptions} says.
   */
  decryptJWE(token: string, options?: JWEContentOptions): Promise<string>;
}

/** JWS algorithms (RFC 7518 section 3, RFC 8037). */
export type JWSAlgorithm =
  | "HS256"
  | "HS384"
  | "HS512"
  | "RS256"
  | "RS384"
  | "RS512"
  | "PS256"
  | "PS384"
  | "PS512"
  | "ES256"
  | "ES384"
  | "ES512"
  | "EdDSA";

/** JWE key management algorithms (RFC 7518 section 4). */
export type JWEAlgorithm =
  | "dir"
  | "A128KW"
  | "A256KW"
  | "RSA-OAEP-256"
  | "ECDH-ES"
  | "ECDH-ES+A128KW"
  | "ECDH-ES+A256KW";

/** JWE content encryption algorithms (RFC 7518 section 5). */
export type JWEEncryption =
  | "A128GCM"
  | "A192GCM"
  | "A256GCM"
  | "A128CBC-HS256"
  | "A192CBC-HS384"
  | "A256CBC-HS512";

/** A JWS protected header. */
export interface JWSHeader {
  /** The signature algorithm. */
  alg: JWSAlgorithm;
  /** Media type of the whole token, e.g. `"JWT"`. */
  typ?: string;
  /** Media type of the payload. */
  cty?: string;
  /** Key id. */
  kid?: string;
  /** Any other parameter (`crit` and `b64` are refused). */
  [parameter: string]: unknown;
}

/** An elliptic-curve public key in JWK form, as found in the `epk` header. */
export interface EphemeralPublicKey {
  /** Always `"EC"`. */
  kty: "EC";
  /** `"P-256"`, `"P-384"` or `"P-521"`. */
  crv: string;
  /** The x coordinate, base64url. */
  x: string;
  /** The y coordinate, base64url. */
  y: string;
}

/** A JWE protected header. */
export interface JWEHeader {
  /** The key management algorithm. */
  alg: JWEAlgorithm;
  /** The content encryption algorithm. */
  enc: JWEEncryption;
  /** Media type of the whole token. */
  typ?: string;
  /** Media type of the plaintext, `"JWT"` for a nested token. */
  cty?: string;
  /** Key id. */
  kid?: string;
  /** ECDH-ES ephemeral public key (set by the library when encrypting). */
  epk?: EphemeralPublicKey;
  /** ECDH-ES PartyUInfo, base64url. */
  apu?: string;
  /** ECDH-ES PartyVInfo, base64url. */
  apv?: string;
  /** Any other parameter (`crit` and `zip` are refused). */
  [parameter: string]: unknown;
}

/** Options of `verifyCompactJWS`. */
export interface VerifyJWSOptions {
  /** Accepted algorithms; default the one the key implies. Never wider than the key allows. */
  algorithms?: JWSAlgorithm[];
  /** Required `typ` (compared case-insensitively, `application/` prefix ignored). */
  typ?: string;
}

/** The result of `verifyCompactJWS`. */
export interface VerifiedJWS {
  /** The verified payload bytes. */
  payload: Uint8Array;
  /** The protected header. */
  header: JWSHeader;
}

/** Options of `decryptCompactJWE`. */
export interface DecryptJWEOptions {
  /** Accepted key management algorithms; default the ones the key implies (required for byte keys). */
  algorithms?: JWEAlgorithm[];
  /** Accepted content encryption algorithms; default the ones the key implies. */
  encryptionAlgorithms?: JWEEncryption[];
  /** Required `typ`. */
  typ?: string;
  /** Required `cty`; `null` requires that the token has none. */
  cty?: string | null;
}

/** The result of `decryptCompactJWE`. */
export interface DecryptedJWE {
  /** The decrypted plaintext. */
  plaintext: Uint8Array;
  /** The protected header. */
  header: JWEHeader;
}
