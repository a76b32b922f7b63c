// A provider's JWKS: lenient parsing (unknown keys skipped), imported keys
// cached, and the refetch policy: an hour, at once for the first unknown
// kid, then at most once a minute.
import assert from "node:assert/strict";
import { createJwks, createJwksCache, parseJwks } from "../../../src/oauth/oidc/jwks.ts";
import { countSubtle } from "../../jose/_subtle.ts";
import { assertRefused, manualClock } from "./_assert.ts";
import { generateKey, type JwksMode, type SigningAlg, startHostileOP } from "./_hostile_op.ts";

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const NO_KEY = { code: "server_error", status: 502, description: /has no key for the ID token/ };

// Parsing

Deno.test("a JWKS keeps an RSA signing key and every algorithm its type allows", async () => {
  const key = await generateKey("RS256", "k");
  const { alg: _, ...jwk } = key.publicJwk;
  const [entry] = parseJwks({ keys: [jwk] });
  assert.equal(entry.kid, "k");
  assert.deepEqual(entry.algorithms, ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"]);
});

Deno.test("a JWKS key with an alg verifies that algorithm only", async () => {
  const key = await generateKey("PS384", "k");
  assert.deepEqual(parseJwks({ keys: [key.publicJwk] })[0].algorithms, ["PS384"]);
});

Deno.test("a JWKS EC key verifies the algorithm of its curve", async () => {
  const key = await generateKey("ES512", "k");
  const { alg: _, ...jwk } = key.publicJwk;
  assert.deepEqual(parseJwks({ keys: [jwk] })[0].algorithms, ["ES512"]);
});

Deno.test("a JWKS Ed25519 key named with the RFC 9864 alg verifies EdDSA", async () => {
  const key = await generateKey("EdDSA", "k");
  assert.deepEqual(parseJwks({ keys: [{ ...key.publicJwk, alg: "Ed25519" }] })[0].algorithms, [
    "EdDSA",
  ]);
});

Deno.test("a JWKS entry keeps only the public members of a key", async () => {
  const key = await generateKey("RS256", "k");
  const [entry] = parseJwks({ keys: [{ ...key.publicJwk, x5c: ["MIIB"], ext: true }] });
  assert.deepEqual(Object.keys(entry.jwk).sort(), ["e", "kty", "n"]);
});

const SKIPPED: [string, Record<string, unknown>][] = [
  ["a symmetric key", { kty: "oct", k: "c2VjcmV0" }],
  ["an unknown key type", { kty: "PQC", pub: "AAAA" }],
  ["a key without kty", { kid: "x" }],
  ["an unknown EC curve", { kty: "EC", crv: "secp256k1", x: "AAAA", y: "AAAA" }],
  ["an EC curve named like a prototype member", { kty: "EC", crv: "__proto__", x: "A", y: "A" }],
  ["an Ed448 key", { kty: "OKP", crv: "Ed448", x: "AAAA" }],
  ["an X25519 key", { kty: "OKP", crv: "X25519", x: "AAAA" }],
  ["an encryption key", { kty: "RSA", n: "AQAB", e: "AQAB", use: "enc" }],
  ["an RSA key for an encryption alg", { kty: "RSA", n: "AQAB", e: "AQAB", alg: "RSA-OAEP-256" }],
  ["an RSA key labelled ES256", { kty: "RSA", n: "AQAB", e: "AQAB", alg: "ES256" }],
  ["an EC P-256 key labelled ES384", { kty: "EC", crv: "P-256", x: "A", y: "A", alg: "ES384" }],
  ["a key whose key_ops exclude verify", { kty: "RSA", n: "AQAB", e: "AQAB", key_ops: ["sign"] }],
  ["a key with a private member", { kty: "RSA", n: "AQAB", e: "AQAB", d: "AQAB" }],
  ["a key with a non-string kid", { kty: "RSA", n: "AQAB", e: "AQAB", kid: 7 }],
  ["an RSA key without n", { kty: "RSA", e: "AQAB" }],
  ["a key that is not an object", "RSA" as unknown as Record<string, unknown>],
];

for (const [what, jwk] of SKIPPED) {
  Deno.test(`a JWKS skips ${what} without failing`, async () => {
    const real = await generateKey("RS256", "real");
    const entries = parseJwks({ keys: [jwk, real.publicJwk] });
    assert.deepEqual(entries.map((entry) => entry.kid), ["real"]);
  });
}

for (const document of [{}, { keys: {} }, [], null, "keys"]) {
  Deno.test(`a JWKS document ${JSON.stringify(document)} is refused with a 502`, async () => {
    await assertRefused(() => parseJwks(document), {
      code: "server_error",
      status: 502,
      description: /no keys array/,
    });
  });
}

// Selection

Deno.test("the key named by kid is returned with its algorithm pinned", async () => {
  await using op = await startHostileOP();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  const key = await jwks.getKey({ alg: "RS256", kid: "key-1" });
  assert.equal(key.alg, "RS256");
  assert.equal(key.key.type, "public");
});

Deno.test("a kid whose key does not fit the token's alg gives no key", async () => {
  await using op = await startHostileOP();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  await assertRefused(jwks.getKey({ alg: "ES256", kid: "key-1" }), NO_KEY);
});

Deno.test("a token without kid uses the only key that fits its alg", async () => {
  await using op = await startHostileOP();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  assert.equal((await jwks.getKey({ alg: "RS256" })).alg, "RS256");
});

Deno.test("a token without kid is refused when several keys fit its alg", async () => {
  await using op = await startHostileOP();
  await op.rotate({ keepOld: true });
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  await assertRefused(jwks.getKey({ alg: "RS256" }), {
    code: "server_error",
    description: /several keys/,
  });
});

Deno.test("the real key is found among decoys of unknown type, curve and algorithm", async () => {
  await using op = await startHostileOP();
  op.jwks = "decoys";
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  assert.equal((await jwks.getKey({ alg: "RS256", kid: "key-1" })).alg, "RS256");
});

Deno.test("a token without kid still finds the real key among decoys", async () => {
  await using op = await startHostileOP();
  op.jwks = "decoys";
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  assert.equal((await jwks.getKey({ alg: "RS256" })).alg, "RS256");
});

Deno.test("a decoy key that fails to import gives no key for its kid", async () => {
  await using op = await startHostileOP();
  op.jwks = "decoys";
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  await assertRefused(jwks.getKey({ alg: "RS256", kid: "decoy-broken" }), NO_KEY);
});

Deno.test("an RSA key under 2048 bits gives no key", async () => {
  await using op = await startHostileOP();
  const pair = await crypto.subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      hash: "SHA-256",
      modulusLength: 1024,
      publicExponent: new Uint8Array([1, 0, 1]),
    },
    true,
    ["sign", "verify"],
  );
  const weak = await crypto.subtle.exportKey("jwk", pair.publicKey);
  op.published = [{
    ...op.current,
    kid: "weak",
    publicJwk: { kty: "RSA", n: weak.n, e: weak.e, kid: "weak" } as JsonWebKey,
  }];
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  await assertRefused(jwks.getKey({ alg: "RS256", kid: "weak" }), NO_KEY);
});

for (const alg of ["RS512", "PS256", "ES256", "ES384", "ES512", "EdDSA"] as SigningAlg[]) {
  Deno.test(`a published ${alg} key is imported for ${alg}`, async () => {
    await using op = await startHostileOP({ alg });
    const jwks = createJwks(`${op.origin}/jwks`, { fetch });
    const key = await jwks.getKey({ alg, kid: "key-1" });
    assert.equal(key.alg, alg);
  });
}

// Caching and refetching

Deno.test("the set is fetched once and reused by later lookups", async () => {
  await using op = await startHostileOP();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  for (let i = 0; i < 5; i++) await jwks.getKey({ alg: "RS256", kid: "key-1" });
  assert.equal(op.hits("/jwks"), 1);
});

Deno.test("concurrent lookups on a cold set share one request", async () => {
  await using op = await startHostileOP();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  await Promise.all(Array.from({ length: 8 }, () => jwks.getKey({ alg: "RS256", kid: "key-1" })));
  assert.equal(op.hits("/jwks"), 1);
});

Deno.test("a warm lookup makes no Web Crypto call", async () => {
  await using op = await startHostileOP();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  await jwks.getKey({ alg: "RS256", kid: "key-1" });
  const calls = await countSubtle(() => jwks.getKey({ alg: "RS256", kid: "key-1" }));
  assert.deepEqual(calls, {});
});

Deno.test("a cold lookup imports only the key and algorithm it needs", async () => {
  await using op = await startHostileOP();
  await op.rotate({ keepOld: true });
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  const calls = await countSubtle(() => jwks.getKey({ alg: "RS256", kid: "key-2" }));
  assert.deepEqual(calls, { importKey: 1 });
});

Deno.test("creating a key set makes no request", async () => {
  await using op = await startHostileOP();
  createJwks(`${op.origin}/jwks`, { fetch });
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(op.hits("/jwks"), 0);
});

Deno.test("a rotated key is found with exactly one refetch, however recent the set", async () => {
  await using op = await startHostileOP();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  await jwks.getKey({ alg: "RS256", kid: "key-1" });
  await op.rotate();
  assert.equal((await jwks.getKey({ alg: "RS256", kid: "key-2" })).alg, "RS256");
  await jwks.getKey({ alg: "RS256", kid: "key-2" });
  assert.equal(op.hits("/jwks"), 2);
});

Deno.test("an unknown kid repeated refetches once, then not within a minute", async () => {
  await using op = await startHostileOP();
  const clock = manualClock();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch, now: clock.now });
  await jwks.getKey({ alg: "RS256", kid: "key-1" });
  for (let i = 0; i < 20; i++) {
    await assertRefused(jwks.getKey({ alg: "RS256", kid: `forged-${i}` }), NO_KEY);
    clock.advance(1000);
  }
  assert.equal(op.hits("/jwks"), 2);
});

Deno.test("concurrent unknown kids share one refetch", async () => {
  await using op = await startHostileOP();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  await jwks.getKey({ alg: "RS256", kid: "key-1" });
  const outcomes = await Promise.allSettled(
    Array.from({ length: 10 }, (_, i) => jwks.getKey({ alg: "RS256", kid: `forged-${i}` })),
  );
  assert.ok(outcomes.every((outcome) => outcome.status === "rejected"));
  assert.equal(op.hits("/jwks"), 2);
});

Deno.test("a concurrent lookup of a rotated kid joins the refetch another started", async () => {
  await using op = await startHostileOP();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  await jwks.getKey({ alg: "RS256", kid: "key-1" });
  await op.rotate();
  const keys = await Promise.all([
    jwks.getKey({ alg: "RS256", kid: "key-2" }),
    jwks.getKey({ alg: "RS256", kid: "key-2" }),
  ]);
  assert.equal(keys[0], keys[1]);
  assert.equal(op.hits("/jwks"), 2);
});

Deno.test("an unknown kid refetches again once a minute has passed", async () => {
  await using op = await startHostileOP();
  const clock = manualClock();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch, now: clock.now });
  await jwks.getKey({ alg: "RS256", kid: "key-1" });
  await assertRefused(jwks.getKey({ alg: "RS256", kid: "forged" }), NO_KEY);
  clock.advance(MINUTE);
  await op.rotate({ keepOld: true });
  assert.equal((await jwks.getKey({ alg: "RS256", kid: "key-2" })).alg, "RS256");
  assert.equal(op.hits("/jwks"), 3);
});

Deno.test("an unknown kid on a cold set costs one request only", async () => {
  await using op = await startHostileOP();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  await assertRefused(jwks.getKey({ alg: "RS256", kid: "forged" }), NO_KEY);
  assert.equal(op.hits("/jwks"), 1);
});

Deno.test("the set is fetched again once an hour has passed", async () => {
  await using op = await startHostileOP();
  const clock = manualClock();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch, now: clock.now });
  await jwks.getKey({ alg: "RS256", kid: "key-1" });
  clock.advance(HOUR - 1);
  await jwks.getKey({ alg: "RS256", kid: "key-1" });
  assert.equal(op.hits("/jwks"), 1);
  clock.advance(1);
  await jwks.getKey({ alg: "RS256", kid: "key-1" });
  assert.equal(op.hits("/jwks"), 2);
});

Deno.test("a key removed from the set is no longer used after the hourly refresh", async () => {
  await using op = await startHostileOP();
  const clock = manualClock();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch, now: clock.now });
  await jwks.getKey({ alg: "RS256", kid: "key-1" });
  await op.rotate();
  clock.advance(HOUR);
  await assertRefused(jwks.getKey({ alg: "RS256", kid: "key-1" }), NO_KEY);
});

Deno.test("an unchanged key is not imported again after a refresh", async () => {
  await using op = await startHostileOP();
  const clock = manualClock();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch, now: clock.now });
  await jwks.getKey({ alg: "RS256", kid: "key-1" });
  clock.advance(HOUR);
  const calls = await countSubtle(() => jwks.getKey({ alg: "RS256", kid: "key-1" }));
  assert.equal(op.hits("/jwks"), 2);
  assert.deepEqual(calls, {});
});

Deno.test("a failed JWKS fetch is not cached: the next lookup fetches again", async () => {
  await using op = await startHostileOP();
  const jwks = createJwks(`${op.origin}/jwks`, { fetch });
  op.jwks = "error";
  await assertRefused(jwks.getKey({ alg: "RS256", kid: "key-1" }), {
    code: "server_error",
    description: /answered 500/,
  });
  op.jwks = "ok";
  assert.equal((await jwks.getKey({ alg: "RS256", kid: "key-1" })).alg, "RS256");
  assert.equal(op.hits("/jwks"), 2);
});

const FETCH_FAILURES: [JwksMode, RegExp][] = [
  ["oversized", /too large/],
  ["slow-headers", /did not answer in time/],
  ["slow-body", /did not answer in time/],
  ["malformed", /not valid JSON/],
  ["no-keys", /no keys array/],
  ["error", /answered 500/],
];

for (const [mode, description] of FETCH_FAILURES) {
  Deno.test(`the JWKS answer "${mode}" fails with a 502 server_error`, async () => {
    await using op = await startHostileOP();
    op.jwks = mode;
    const jwks = createJwks(`${op.origin}/jwks`, { fetch, timeoutMs: 300 });
    await assertRefused(jwks.getKey({ alg: "RS256", kid: "key-1" }), {
      code: "server_error",
      status: 502,
      description,
    });
  });
}

for (const uri of ["http://keys.example.com/jwks", "/jwks", "https://u:p@keys.example.com/"]) {
  Deno.test(`a jwks_uri ${uri} throws a TypeError`, () => {
    assert.throws(() => createJwks(uri, { fetch }), TypeError);
  });
}

// One instance's key sets

Deno.test("a key-set cache returns the same set for the same jwks_uri", async () => {
  await using op = await startHostileOP();
  const cache = createJwksCache({ fetch });
  await cache.get(`${op.origin}/jwks`).getKey({ alg: "RS256", kid: "key-1" });
  await cache.get(`${op.origin}/jwks`).getKey({ alg: "RS256", kid: "key-1" });
  assert.equal(cache.get(`${op.origin}/jwks`), cache.get(`${op.origin}/jwks`));
  assert.equal(op.hits("/jwks"), 1);
});

Deno.test("a key-set cache keeps the sets of two jwks_uris apart", async () => {
  await using a = await startHostileOP();
  await using b = await startHostileOP({ alg: "ES256" });
  const cache = createJwksCache({ fetch });
  assert.equal((await cache.get(`${a.origin}/jwks`).getKey({ alg: "RS256" })).alg, "RS256");
  assert.equal((await cache.get(`${b.origin}/jwks`).getKey({ alg: "ES256" })).alg, "ES256");
  await assertRefused(cache.get(`${a.origin}/jwks`).getKey({ alg: "ES256" }), NO_KEY);
});
