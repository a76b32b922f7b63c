/**
 * The ID token signing key and its publication: a key pair generated with
 * Web Crypto on first need, its `kid` (the RFC 7638 thumbprint), rotation,
 * and the JWKS endpoint that serves the current public key.
 *
 * @module
 */

import { encodeBase64Url } from "../../jose/base64url.ts";
import type { MockContext, SigningKey } from "./_state.ts";
import { json, methodNotAllowed, type Outcome } from "./responses.ts";
import type { MockSigningAlgorithm } from "./types.ts";

const KEY_PARAMS: Readonly<Record<MockSigningAlgorithm, RsaHashedKeyGenParams | EcKeyGenParams>> = {
  RS256: {
    name: "RSASSA-PKCS1-v1_5",
    modulusLength: 2048,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: "SHA-256",
  },
  ES256: { name: "ECDSA", namedCurve: "P-256" },
};

/** The members of a public key that its thumbprint covers (RFC 7638 section 3.2), sorted. */
const PUBLIC_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  RSA: ["e", "kty", "n"],
  EC: ["crv", "kty", "x", "y"],
};

/** The current signing key; the first call generates it (once, however many calls wait). */
export function signingKey(ctx: MockContext): Promise<SigningKey> {
  const { state, settings } = ctx;
  if (state.signingKey === undefined) {
    const pending: Promise<SigningKey> = generateSigningKey(settings.oidc?.alg ?? "ES256")
      .catch((error) => {
        // A failed generation is not kept: the next request tries again.
        if (state.signingKey === pending) state.signingKey = undefined;
        throw error;
      });
    state.signingKey = pending;
  }
  return state.signingKey;
}

/** Replaces the signing key by a new one and resolves its `kid`. */
export async function rotateKey(ctx: MockContext): Promise<string> {
  if (ctx.settings.oidc === undefined) {
    throw new TypeError(
      "rotateKey() needs an OpenID Connect mock; expected createMockProvider({ oidc: true }).",
    );
  }
  ctx.state.signingKey = undefined;
  return (await signingKey(ctx)).kid;
}

/** Generates a key pair; the private key cannot be exported. */
async function generateSigningKey(alg: MockSigningAlgorithm): Promise<SigningKey> {
  const pair = await crypto.subtle.generateKey(KEY_PARAMS[alg], false, ["sign", "verify"]);
  const exported = await crypto.subtle.exportKey("jwk", pair.publicKey);
  const members = PUBLIC_MEMBERS[exported.kty ?? ""];
  const publicKey: Record<string, string> = {};
  for (const name of members) publicKey[name] = String(exported[name as keyof JsonWebKey]);
  // The members are in lexicographic order, so this is the thumbprint's input.
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(JSON.stringify(publicKey)),
  );
  const kid = encodeBase64Url(new Uint8Array(digest));
  return {
    kid,
    privateKey: pair.privateKey,
    publicJWK: { ...publicKey, kid, alg, use: "sig" },
  };
}

/** `GET {issuer}/jwks`: the JWK Set with the current public key. */
export async function jwks(ctx: MockContext, request: Request): Promise<Outcome> {
  if (request.method !== "GET") return methodNotAllowed("GET");
  const key = await signingKey(ctx);
  const set = { keys: [{ ...key.publicJWK }] };
  const tamper = ctx.settings.oidc?.jwks;
  return { response: json(tamper === undefined ? set : tamper(set)) };
}
