/**
 * Service tokens: `verifyAccessToken` (jose.ts) with a warm JWKS beside
 * `npm:jose@6`'s `jwtVerify` with the same public key and the same checks
 * (issuer, audience, `typ: "at+jwt"`), for ES256, EdDSA and RS256; and
 * `api.verifyApiKey` over `memoryStore` (one store read, HMAC-SHA-256 in
 * JavaScript, no Web Crypto call). Run with
 * `deno bench -A bench/service_tokens_bench.ts`; compare medians within a group.
 *
 * @module
 */

// deno-lint-ignore no-import-prefix -- dev-only peer; deno.json has no import map.
import * as jose from "npm:jose@6";
import { createAuth, memoryStore } from "../mod.ts";
import { verifyAccessToken } from "../jose.ts";

const ISSUER = "https://auth.example.com";
const AUDIENCE = "https://api.example.com";
const SECRET = "bench-secret-0123456789abcdef-0123456789abcdef";

type Alg = "ES256" | "EdDSA" | "RS256";
const PARAMS: Record<Alg, AlgorithmIdentifier | RsaHashedKeyGenParams | EcKeyGenParams> = {
  ES256: { name: "ECDSA", namedCurve: "P-256" },
  EdDSA: { name: "Ed25519" },
  RS256: {
    name: "RSASSA-PKCS1-v1_5",
    modulusLength: 2048,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: "SHA-256",
  },
};

for (const alg of ["ES256", "EdDSA", "RS256"] as const) {
  const pair = await crypto.subtle.generateKey(PARAMS[alg], false, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const auth = createAuth({
    oauth: [],
    secret: SECRET,
    env: {},
    logger: false,
    serviceTokens: { keys: [pair], issuer: ISSUER },
  });
  const jwks = await (await auth.handlers.ALL(new Request(`${ISSUER}/auth/jwks`))).text();
  // The JWKS comes from the issuer's own route, served by a fetch that needs no network.
  const fetchJwks: typeof fetch = () =>
    Promise.resolve(new Response(jwks, { headers: { "Content-Type": "application/json" } }));
  const options = {
    issuer: ISSUER,
    audience: AUDIENCE,
    jwksURL: `${ISSUER}/auth/jwks`,
    fetch: fetchJwks,
  };
  const token = (await auth.api.issueAccessToken({ sub: "user-1" }, {
    audience: AUDIENCE,
    scope: "read write",
    expiresIn: 3600,
  }))!;
  await verifyAccessToken(token, options); // warms the JWKS cache
  const peerOptions = { issuer: ISSUER, audience: AUDIENCE, typ: "at+jwt", algorithms: [alg] };
  await jose.jwtVerify(token, pair.publicKey, peerOptions);

  Deno.bench({
    name: `verifyAccessToken ${alg} (warm JWKS)`,
    group: `access token ${alg}`,
    async fn() {
      await verifyAccessToken(token, options);
    },
  });
  Deno.bench({
    name: `npm:jose jwtVerify ${alg} (same key)`,
    group: `access token ${alg}`,
    baseline: true,
    async fn() {
      await jose.jwtVerify(token, pair.publicKey, peerOptions);
    },
  });
}

const auth = createAuth({
  oauth: [],
  secret: SECRET,
  env: {},
  logger: false,
  apiKeys: { store: memoryStore() },
});
const { key } = await auth.api.createApiKey("user-1", { name: "bench", scopes: ["read"] });
const request = new Request("https://api.example.com/things", {
  headers: { Authorization: `Bearer ${key}` },
});
await auth.api.verifyApiKey(request);
const broken = new Request("https://api.example.com/things", {
  headers: { Authorization: `Bearer ${key.slice(0, -1)}${key.endsWith("0") ? "1" : "0"}` },
});

Deno.bench({
  name: "verifyApiKey (memoryStore, valid key)",
  group: "api key",
  baseline: true,
  async fn() {
    await auth.api.verifyApiKey(request);
  },
});
Deno.bench({
  name: "verifyApiKey (a mistyped key: refused by its CRC, no store call)",
  group: "api key",
  async fn() {
    await auth.api.verifyApiKey(broken);
  },
});
