/**
 * The service's signing keys for access tokens, and what `GET /jwks`
 * publishes of them: per key pair, the public JWK members only (RSA `n`,
 * `e`; EC `crv`, `x`, `y`; OKP `crv`, `x`), with `kid` = its RFC 7638
 * SHA-256 thumbprint (so every instance names a key alike), `alg` and
 * `use: "sig"`. Exported once per instance, on first use.
 *
 * @module
 */

import { encoder, subtle } from "../jose/_common.ts";
import { jwsAlgorithmForKey } from "../jose/algorithms.ts";
import { encodeBase64Url } from "../jose/base64url.ts";
import { type JWSKey, prepareJWSKey } from "../jose/jws.ts";
import type { JWSAlgorithm, WebCryptoKeyPair } from "../jose/types.ts";

/** A public key as `GET /jwks` lists it. */
export type PublishedJwk = Readonly<Record<string, string>>;

/** One key pair, ready to sign: its algorithm, kid and public JWK. */
export interface SigningKey {
  readonly alg: JWSAlgorithm;
  readonly kid: string;
  readonly jwk: PublishedJwk;
  /** The private key, checked for JWS signing; `undefined` for a key listed only (a session key). */
  readonly signer?: JWSKey;
}

/** The JWS algorithms an access token may use: every asymmetric one. */
export function isAsymmetricAlgorithm(alg: JWSAlgorithm): boolean {
  return !alg.startsWith("HS");
}

/**
 * The algorithm of a key pair that can sign JWS asymmetrically, or
 * `undefined` (HMAC, encryption keys, anything else). Never throws.
 */
export function signingAlgorithmOf(pair: WebCryptoKeyPair): JWSAlgorithm | undefined {
  try {
    const alg = jwsAlgorithmForKey(pair.privateKey);
    return isAsymmetricAlgorithm(alg) ? alg : undefined;
  } catch {
    return undefined;
  }
}

/** The RFC 7638 members of a public JWK in lexicographic order, and the public JWK itself. */
function publicMembers(jwk: JsonWebKey): Record<string, string> {
  switch (jwk.kty) {
    case "RSA":
      return { e: jwk.e!, kty: "RSA", n: jwk.n! };
    case "EC":
      return { crv: jwk.crv!, kty: "EC", x: jwk.x!, y: jwk.y! };
    default:
      return { crv: jwk.crv!, kty: "OKP", x: jwk.x! };
  }
}

async function signingKey(pair: WebCryptoKeyPair, sign: boolean): Promise<SigningKey> {
  const alg = jwsAlgorithmForKey(pair.privateKey);
  const members = publicMembers(await subtle.exportKey("jwk", pair.publicKey));
  const digest = await subtle.digest("SHA-256", encoder.encode(JSON.stringify(members)));
  const kid = encodeBase64Url(new Uint8Array(digest));
  const jwk = Object.freeze({ ...members, kid, alg, use: "sig" });
  return Object.freeze({
    alg,
    kid,
    jwk,
    signer: sign ? prepareJWSKey(pair.privateKey, "sign") : undefined,
  });
}

/** The keys of an instance: the first access-token key signs; all are published. */
export interface SigningKeys {
  /** The access-token keys, the first issuing. */
  readonly tokenKeys: readonly SigningKey[];
  /** The JWKS document's text: every token key, then the session's key pairs. */
  readonly jwksText: string;
}

/**
 * The signing keys of an instance, exported once on first use: the
 * `serviceTokens.keys` pairs (which sign) and the session's own key pairs
 * in `signed` mode (listed only, so that other services can verify those
 * tokens too; never accepted as access tokens, whose `typ` differs). A key
 * listed twice is published once.
 */
export function signingKeys(
  tokenPairs: readonly WebCryptoKeyPair[],
  sessionPairs: readonly WebCryptoKeyPair[],
): () => Promise<SigningKeys> {
  let pending: Promise<SigningKeys> | undefined;
  return () => {
    pending ??= Promise.all([
      Promise.all(tokenPairs.map((pair) => signingKey(pair, true))),
      Promise.all(sessionPairs.map((pair) => signingKey(pair, false))),
    ]).then(([tokenKeys, sessionKeys]) => {
      const seen = new Set<string>();
      const keys: PublishedJwk[] = [];
      for (const key of [...tokenKeys, ...sessionKeys]) {
        if (seen.has(key.kid)) continue;
        seen.add(key.kid);
        keys.push(key.jwk);
      }
      return Object.freeze({ tokenKeys, jwksText: JSON.stringify({ keys }) });
    }).catch((error) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
