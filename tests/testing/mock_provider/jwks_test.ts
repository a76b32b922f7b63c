import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only oracle; deno.json has no import map.
import * as jose from "npm:jose@6";
import { createMockProvider, type MockProvider } from "../../../testing.ts";

async function jwksOf(mock: MockProvider): Promise<{ keys: Record<string, string>[] }> {
  const response = await mock.fetch(`${mock.issuer}/jwks`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type")!, /^application\/json/);
  return await response.json();
}

Deno.test("an RS256 mock's JWKS serves one RSA public key with kid, alg and use, and nothing private", async () => {
  const { keys } = await jwksOf(createMockProvider({ oidc: { signingAlg: "RS256" } }));
  assert.equal(keys.length, 1);
  assert.deepEqual(Object.keys(keys[0]).sort(), ["alg", "e", "kid", "kty", "n", "use"]);
  assert.equal(keys[0].kty, "RSA");
  assert.equal(keys[0].alg, "RS256");
  assert.equal(keys[0].use, "sig");
  assert.equal(keys[0].e, "AQAB");
  // A 2048-bit modulus is 256 bytes: 342 base64url characters.
  assert.equal(keys[0].n.length, 342);
});

Deno.test("by default the JWKS serves an ES256 P-256 key", async () => {
  const { keys } = await jwksOf(createMockProvider({ oidc: true }));
  assert.deepEqual(Object.keys(keys[0]).sort(), ["alg", "crv", "kid", "kty", "use", "x", "y"]);
  assert.equal(keys[0].kty, "EC");
  assert.equal(keys[0].crv, "P-256");
  assert.equal(keys[0].alg, "ES256");
});

Deno.test("the kid is the key's RFC 7638 thumbprint", async () => {
  for (const signingAlg of ["RS256", "ES256"] as const) {
    const { keys } = await jwksOf(createMockProvider({ oidc: { signingAlg } }));
    assert.equal(keys[0].kid, await jose.calculateJwkThumbprint(keys[0]), signingAlg);
  }
});

Deno.test("the key is generated once, however many requests ask at once", async () => {
  const mock = createMockProvider({ oidc: true });
  const sets = await Promise.all([jwksOf(mock), jwksOf(mock), jwksOf(mock)]);
  assert.equal(new Set(sets.map((set) => set.keys[0].kid)).size, 1);
  assert.deepEqual((await jwksOf(mock)).keys, sets[0].keys);
});

Deno.test("two mocks have different keys", async () => {
  const a = await jwksOf(createMockProvider({ oidc: true }));
  const b = await jwksOf(createMockProvider({ oidc: true }));
  assert.notEqual(a.keys[0].kid, b.keys[0].kid);
});

Deno.test("rotateKey gives a new kid and the JWKS then holds only the new key", async () => {
  const mock = createMockProvider({ oidc: true });
  const before = (await jwksOf(mock)).keys[0].kid;
  const kid = await mock.rotateKey();
  assert.notEqual(kid, before);
  const after = await jwksOf(mock);
  assert.deepEqual(after.keys.map((key) => key.kid), [kid]);
});

Deno.test("rotateKey rejects with oidc: false", async () => {
  await assert.rejects(() => createMockProvider({ oidc: false }).rotateKey(), TypeError);
});

Deno.test("the JWKS refuses POST with 405 and Allow: GET", async () => {
  const mock = createMockProvider({ oidc: true });
  const response = await mock.fetch(`${mock.issuer}/jwks`, { method: "POST" });
  assert.equal(response.status, 405);
  assert.equal(response.headers.get("allow"), "GET");
  await response.body?.cancel();
});

Deno.test("the jwks knob serves another key set", async () => {
  const odd = { kty: "OKP", crv: "X448", x: "AAAA", kid: "odd" };
  const mock = createMockProvider({ oidc: { jwks: (set) => ({ keys: [odd, ...set.keys] }) } });
  const { keys } = await jwksOf(mock);
  assert.equal(keys.length, 2);
  assert.deepEqual(keys[0], odd);
  assert.equal(keys[1].kty, "EC");
});
