/**
 * `verifyAccessToken` with a warm JWKS against `npm:jose@6`'s `jwtVerify`
 * with the same public key and the same checks, alternated call by call so
 * that a busy machine slows both alike, reported as medians of per-call
 * times and their ratio (the figure `bench/service_tokens_bench.ts` cannot
 * give: `deno bench` reports means). Also `api.verifyApiKey` over
 * `memoryStore`, counting its store reads. Run with
 * `deno run -A bench/service_tokens_ratio.ts [calls]`.
 *
 * @module
 */

// deno-lint-ignore no-import-prefix -- dev-only peer; deno.json has no import map.
import * as jose from "npm:jose@6";
import { type ApiKeyStore, createAuth, memoryStore } from "../mod.ts";
import { verifyAccessToken } from "../jose.ts";

const CALLS = Number(Deno.args[0] ?? 3000);
const WARMUP = 300;
const ISSUER = "https://auth.example.com";
const AUDIENCE = "https://api.example.com";
const SECRET = "bench-secret-0123456789abcdef-0123456789abcdef";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const PARAMS = {
  ES256: { name: "ECDSA", namedCurve: "P-256" },
  EdDSA: { name: "Ed25519" },
  RS256: {
    name: "RSASSA-PKCS1-v1_5",
    modulusLength: 2048,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: "SHA-256",
  },
} as const;

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
  const options = {
    issuer: ISSUER,
    audience: AUDIENCE,
    jwksURL: `${ISSUER}/auth/jwks`,
    fetch: () => Promise.resolve(new Response(jwks)),
  };
  const token = (await auth.api.issueAccessToken({ sub: "user-1" }, {
    audience: AUDIENCE,
    scope: "read write",
    expiresIn: 3600,
  }))!;
  const peerOptions = { issuer: ISSUER, audience: AUDIENCE, typ: "at+jwt", algorithms: [alg] };
  const ours: number[] = [];
  const peer: number[] = [];
  for (let i = 0; i < CALLS + WARMUP; i++) {
    // Alternate which goes first, so neither always runs right after the other.
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const which of order) {
      const start = performance.now();
      if (which === 0) await verifyAccessToken(token, options);
      else await jose.jwtVerify(token, pair.publicKey, peerOptions);
      const elapsed = performance.now() - start;
      if (i >= WARMUP) (which === 0 ? ours : peer).push(elapsed);
    }
  }
  const [a, b] = [median(ours), median(peer)];
  console.log(
    `${alg}: verifyAccessToken ${(a * 1000).toFixed(1)} µs, npm:jose jwtVerify ${
      (b * 1000).toFixed(1)
    } µs, ratio ${(a / b).toFixed(3)} (medians of ${CALLS} alternated calls)`,
  );
}

let reads = 0;
const inner = memoryStore();
const counted: ApiKeyStore = {
  ...inner,
  getApiKey: (id) => (reads++, inner.getApiKey(id)),
};
const auth = createAuth({
  oauth: [],
  secret: SECRET,
  env: {},
  logger: false,
  apiKeys: { store: counted },
});
const { key } = await auth.api.createApiKey("user-1", { name: "bench" });
const request = new Request(`${AUDIENCE}/things`, { headers: { Authorization: `Bearer ${key}` } });
const times: number[] = [];
for (let i = 0; i < CALLS + WARMUP; i++) {
  const start = performance.now();
  if ((await auth.api.verifyApiKey(request)) === null) throw new Error("refused");
  if (i >= WARMUP) times.push(performance.now() - start);
}
console.log(
  `verifyApiKey (memoryStore): ${(median(times) * 1000).toFixed(1)} µs median, ${
    reads / (CALLS + WARMUP)
  } store reads per call`,
);
