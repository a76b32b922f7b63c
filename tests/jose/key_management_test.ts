import assert from "node:assert/strict";
import { decodeBase64Url } from "../../jose.ts";
import { isOnCurve } from "../../src/jose/key_management.ts";
import { RFC7515_A3, RFC7520_5_4 } from "./_vectors.ts";

async function publicPoint(namedCurve: string): Promise<[Uint8Array, Uint8Array]> {
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve }, true, [
    "deriveBits",
  ]);
  const jwk = await crypto.subtle.exportKey("jwk", pair.publicKey);
  return [decodeBase64Url(jwk.x!), decodeBase64Url(jwk.y!)];
}

for (const curve of ["P-256", "P-384", "P-521"]) {
  Deno.test(`${curve}: generated public keys are on the curve`, async () => {
    for (let i = 0; i < 5; i++) {
      const [x, y] = await publicPoint(curve);
      assert.equal(isOnCurve(curve, x, y), true);
    }
  });

  Deno.test(`${curve}: a point with a changed y is off the curve`, async () => {
    const [x, y] = await publicPoint(curve);
    y[y.length - 1] ^= 1;
    assert.equal(isOnCurve(curve, x, y), false);
  });
}

Deno.test("the published example keys are on their curves", () => {
  assert.equal(
    isOnCurve("P-256", decodeBase64Url(RFC7515_A3.key.x), decodeBase64Url(RFC7515_A3.key.y)),
    true,
  );
  assert.equal(
    isOnCurve("P-384", decodeBase64Url(RFC7520_5_4.key.x), decodeBase64Url(RFC7520_5_4.key.y)),
    true,
  );
});

Deno.test("coordinates of the wrong length, at or above p, or on an unknown curve are refused", async () => {
  const [x, y] = await publicPoint("P-256");
  assert.equal(isOnCurve("P-256", x.subarray(1), y), false);
  assert.equal(isOnCurve("P-256", new Uint8Array(32).fill(255), y), false);
  assert.equal(isOnCurve("secp256k1", x, y), false);
});
