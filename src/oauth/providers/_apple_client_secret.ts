/**
 * Apple's client secret: an ES256 JWT signed with the Sign in with Apple
 * `.p8` key (header `alg: ES256`, `kid`; claims `iss` = Team ID, `iat`,
 * `exp`, `aud` = `https://appleid.apple.com`, `sub` = client id), made
 * lazily and reused until shortly before it expires.
 *
 * @module
 */

import { decodeBase64Url, encodeBase64Url } from "../../jose/base64url.ts";

/** Options of {@link appleClientSecret}. */
export interface AppleClientSecretOptions {
  /** The 10-character Team ID (the `iss` claim). */
  teamId: string;
  /** The 10-character Key ID of the private key (the `kid` header). */
  keyId: string;
  /** The `.p8` key: PKCS#8 PEM of a P-256 private key (literal `\n` accepted). */
  privateKey: string;
  /** The Services ID or App ID (the `sub` claim). */
  clientId: string;
  /** Lifetime of one secret in seconds; default 3600, at most 15777000 (6 months). */
  lifetime?: number;
  /** The clock, in milliseconds; default `Date.now`. */
  now?: () => number;
}

/** Apple's cap on a client secret's lifetime: 6 months, in seconds. */
export const APPLE_MAX_SECRET_LIFETIME = 15_777_000;

/** A fresh secret is made when the cached one has less than this left, in seconds. */
const RENEW_BEFORE = 300;
const TEN_CHARACTERS = /^[A-Z0-9]{10}$/;
const PEM = /^-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\s]+)-----END PRIVATE KEY-----$/;
// OIDs id-ecPublicKey (1.2.840.10045.2.1) and prime256v1 (1.2.840.10045.3.1.7), DER-encoded.
const EC_KEY_OID = [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
const P256_OID = [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];

function fail(message: string): never {
  throw new TypeError(message);
}

function contains(bytes: Uint8Array, pattern: readonly number[]): boolean {
  outer: for (let i = 0; i + pattern.length <= bytes.length; i++) {
    for (let j = 0; j < pattern.length; j++) if (bytes[i + j] !== pattern[j]) continue outer;
    return true;
  }
  return false;
}

/** Decodes the `.p8` PEM synchronously, so that a wrong key fails at `createAuth`. */
function pkcs8(pem: string): Uint8Array<ArrayBuffer> {
  const text = pem.replace(/\\n/g, "\n").trim();
  const match = PEM.exec(text);
  if (match === null) {
    fail(
      'provider "apple" privateKey is not a PKCS#8 PEM; expected the .p8 file\'s text, "-----BEGIN PRIVATE KEY-----" ... "-----END PRIVATE KEY-----".',
    );
  }
  let der: Uint8Array;
  try {
    const base64 = match[1].replace(/\s+/g, "");
    der = decodeBase64Url(base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""));
  } catch {
    return fail('provider "apple" privateKey is not valid base64; expected the .p8 file\'s text.');
  }
  if (der[0] !== 0x30 || !contains(der, EC_KEY_OID) || !contains(der, P256_OID)) {
    fail('provider "apple" privateKey is not a P-256 EC key; expected the .p8 key Apple issued.');
  }
  return new Uint8Array(der);
}

function encodeJSON(value: unknown): string {
  return encodeBase64Url(new TextEncoder().encode(JSON.stringify(value)));
}

/**
 * Returns a function that gives Apple's client secret: an ES256 JWT signed
 * with the `.p8` key through Web Crypto. The key is imported once; a secret
 * lives `lifetime` seconds (default one hour: a leaked secret is then
 * useless within the hour, at the cost of one signature an hour; Apple
 * allows up to 6 months) and is reused until five minutes before it
 * expires; concurrent callers share one signature. A failed signature is
 * not cached: the next call tries again. The options are checked at once
 * (synchronously), with a `TypeError` naming the fix.
 *
 * @example
 * ```ts
 * import { appleClientSecret } from "./_apple_client_secret.ts";
 *
 * const secret = appleClientSecret({
 *   teamId: "ABCDE12345",
 *   keyId: "XYZ9876543",
 *   privateKey: Deno.env.get("APPLE_PRIVATE_KEY")!,
 *   clientId: "com.example.web",
 * });
 * const jwt = await secret(); // the client_secret of the token request
 * ```
 */
export function appleClientSecret(options: AppleClientSecretOptions): () => Promise<string> {
  const { teamId, keyId, clientId } = options;
  if (typeof teamId !== "string" || !TEN_CHARACTERS.test(teamId)) {
    fail(
      'provider "apple" teamId must be the 10-character Team ID; expected e.g. teamId: "ABCDE12345".',
    );
  }
  if (typeof keyId !== "string" || !TEN_CHARACTERS.test(keyId)) {
    fail(
      'provider "apple" keyId must be the 10-character Key ID; expected e.g. keyId: "XYZ9876543".',
    );
  }
  if (typeof clientId !== "string" || clientId.trim() === "") {
    fail('provider "apple" needs a client id; expected the Services ID, e.g. "com.example.web".');
  }
  const lifetime = options.lifetime ?? 3600;
  if (!Number.isInteger(lifetime) || lifetime < 600 || lifetime > APPLE_MAX_SECRET_LIFETIME) {
    fail(
      `provider "apple" secret lifetime must be whole seconds from 600 to ${APPLE_MAX_SECRET_LIFETIME}; expected e.g. 3600.`,
    );
  }
  const der = pkcs8(options.privateKey);
  const now = options.now ?? Date.now;
  const header = encodeJSON({ alg: "ES256", kid: keyId, typ: "JWT" });
  let key: Promise<CryptoKey> | undefined;
  let cached: { jwt: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function sign(): Promise<string> {
    key ??= crypto.subtle.importKey("pkcs8", der, { name: "ECDSA", namedCurve: "P-256" }, false, [
      "sign",
    ]);
    let signingKey: CryptoKey;
    try {
      signingKey = await key;
    } catch (error) {
      key = undefined;
      throw error;
    }
    const iat = Math.floor(now() / 1000);
    const exp = iat + lifetime;
    const payload = encodeJSON({
      iss: teamId,
      iat,
      exp,
      aud: "https://appleid.apple.com",
      sub: clientId,
    });
    const input = `${header}.${payload}`;
    const signature = await crypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      signingKey,
      new TextEncoder().encode(input),
    );
    const jwt = `${input}.${encodeBase64Url(new Uint8Array(signature))}`;
    cached = { jwt, renewAt: (exp - RENEW_BEFORE) * 1000 };
    return jwt;
  }

  return () => {
    if (cached !== undefined && now() < cached.renewAt) return Promise.resolve(cached.jwt);
    pending ??= sign().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}
