import assert from "node:assert/strict";
import { decodeCbor } from "../../src/webauthn/cbor.ts";
import {
  importCoseKey,
  importCredentialKey,
  isCoseAlgorithm,
  verifyCredentialSignature,
} from "../../src/webauthn/cose.ts";
import { isEd25519Point, isP256Point } from "../../src/webauthn/_curves.ts";
import { encodeBase64Url } from "../../src/jose/base64url.ts";
import { ALG_NAMES, ALGS, createAuthenticator } from "./_authenticator.ts";
import { type Encodable, encodeCbor, hex } from "./_cbor.ts";

const data = new TextEncoder().encode("signed bytes");

function keyOf(map: Map<Encodable, Encodable>) {
  return decodeCbor(encodeCbor(map));
}

for (const alg of ALGS) {
  Deno.test(`cose ${ALG_NAMES[alg]}: a key imports, round-trips through SPKI and verifies its signatures`, async () => {
    const auth = await createAuthenticator(alg);
    const imported = await importCoseKey(keyOf(auth.coseKey()));
    assert.equal(imported.algorithm, alg);
    const again = await importCredentialKey(imported.spki, alg);
    const fromText = await importCredentialKey(encodeBase64Url(imported.spki), alg);
    const signature = await auth.sign(data);
    assert.equal(await verifyCredentialSignature(again, alg, signature, data), true);
    assert.equal(await verifyCredentialSignature(fromText, alg, signature, data), true);
    assert.equal(
      await verifyCredentialSignature(imported.key, alg, signature, new Uint8Array([1])),
      false,
    );
  });

  Deno.test(`cose ${ALG_NAMES[alg]}: a stored key refuses to import as another algorithm`, async () => {
    const auth = await createAuthenticator(alg);
    const { spki } = await importCoseKey(keyOf(auth.coseKey()));
    for (const other of ALGS.filter((a) => a !== alg)) {
      await assert.rejects(importCredentialKey(spki, other), { reason: "key_invalid" });
    }
    await assert.rejects(importCredentialKey(spki.subarray(1), alg), { reason: "key_invalid" });
    await assert.rejects(importCredentialKey("not base64url!", alg), { reason: "key_invalid" });
  });

  Deno.test(`cose ${ALG_NAMES[alg]}: a key is refused outside the allowed algorithms`, async () => {
    const auth = await createAuthenticator(alg);
    await assert.rejects(importCoseKey(keyOf(auth.coseKey()), ALGS.filter((a) => a !== alg)), {
      reason: "key_algorithm",
    });
  });
}

Deno.test("cose refuses a value that is not a map, and keys without an integer kty or alg", async () => {
  await assert.rejects(importCoseKey([1, 2]), { reason: "key_malformed" });
  await assert.rejects(importCoseKey(keyOf(new Map([[3, -7]]))), { reason: "key_malformed" });
  await assert.rejects(importCoseKey(keyOf(new Map<Encodable, Encodable>([[1, "EC2"], [3, -7]]))), {
    reason: "key_malformed",
  });
  await assert.rejects(
    importCoseKey(keyOf(new Map<Encodable, Encodable>([[1, 2], [3, "ES256"]]))),
    {
      reason: "key_malformed",
    },
  );
});

Deno.test("cose refuses unknown algorithms (ES384, PS256, RS1, ES256K)", async () => {
  const auth = await createAuthenticator(-7);
  for (const alg of [-35, -37, -65535, -47]) {
    const key = auth.coseKey();
    key.set(3, alg);
    await assert.rejects(importCoseKey(keyOf(key)), { reason: "key_algorithm" });
  }
});

Deno.test("cose refuses an RSA modulus under 2048 bits, and accepts 2048 exactly", async () => {
  const short = await createAuthenticator(-257, { rsaBits: 1024 });
  await assert.rejects(importCoseKey(keyOf(short.coseKey())), { reason: "key_too_weak" });
  const almost = await createAuthenticator(-257, { rsaBits: 2040 });
  await assert.rejects(importCoseKey(keyOf(almost.coseKey())), { reason: "key_too_weak" });
  const ok = await createAuthenticator(-257, { rsaBits: 2048 });
  assert.equal((await importCoseKey(keyOf(ok.coseKey()))).algorithm, -257);
});

Deno.test("cose refuses an RSA modulus with a leading zero and bad exponents", async () => {
  const auth = await createAuthenticator(-257);
  const withZero = auth.coseKey();
  withZero.set(-1, new Uint8Array([0, ...(withZero.get(-1) as Uint8Array)]));
  await assert.rejects(importCoseKey(keyOf(withZero)), { reason: "key_invalid" });
  for (const e of [[], [1], [2], [0, 1, 0, 1], [1, 0, 0], [1, 0, 0, 0, 1]]) {
    const key = auth.coseKey();
    key.set(-2, new Uint8Array(e));
    await assert.rejects(importCoseKey(keyOf(key)), { reason: "key_invalid" }, `e = ${e}`);
  }
});

Deno.test("cose accepts only the RSA exponent 65537 and an odd modulus", async () => {
  const auth = await createAuthenticator(-257);
  assert.equal((await importCoseKey(keyOf(auth.coseKey()))).algorithm, -257);
  // 3, 17, 2^16 + 3, 2^32 - 1 and 65537 with a leading zero byte: odd, yet not 65537 as it should be.
  for (const e of [[3], [17], [1, 0, 3], [255, 255, 255, 255], [0, 1, 0, 1], [1, 0, 1, 0]]) {
    const key = auth.coseKey();
    key.set(-2, new Uint8Array(e));
    await assert.rejects(importCoseKey(keyOf(key)), { reason: "key_invalid" }, `e = ${e}`);
  }
  const even = auth.coseKey();
  const n = Uint8Array.from(even.get(-1) as Uint8Array);
  n[n.length - 1] &= 0xfe;
  even.set(-1, n);
  await assert.rejects(importCoseKey(keyOf(even)), { reason: "key_invalid" });
});

Deno.test("cose refuses P-256 coordinates of another length, also a 33-byte one of the same value", async () => {
  const auth = await createAuthenticator(-7);
  for (const label of [-2, -3]) {
    const padded = auth.coseKey();
    padded.set(label, new Uint8Array([0, ...(padded.get(label) as Uint8Array)]));
    await assert.rejects(importCoseKey(keyOf(padded)), { reason: "key_invalid" });
  }
});

Deno.test("cose refuses an EC2 y given as a boolean (point compression)", async () => {
  const auth = await createAuthenticator(-7);
  const key = auth.coseKey();
  key.set(-3, true);
  await assert.rejects(importCoseKey(keyOf(key)), { reason: "key_malformed" });
});

Deno.test("P-256 point check: real points pass; off-curve, x or y >= p fail", async () => {
  for (let i = 0; i < 5; i++) {
    const auth = await createAuthenticator(-7);
    const key = auth.coseKey();
    assert.equal(isP256Point(key.get(-2) as Uint8Array, key.get(-3) as Uint8Array), true);
  }
  const p = hex("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff");
  assert.equal(isP256Point(p, new Uint8Array(32)), false);
  assert.equal(isP256Point(new Uint8Array(32), new Uint8Array(32)), false);
  // The generator, and the generator with y + p (same residue) refused for y >= p.
  const gx = hex("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296");
  const gy = hex("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5");
  assert.equal(isP256Point(gx, gy), true);
});

function littleEndian(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
}

function bigEndian(n: bigint): Uint8Array {
  return littleEndian(n).reverse();
}

Deno.test("Ed25519 point check refuses a non-canonical y (y + p) of a valid point", () => {
  const p = 2n ** 255n - 19n;
  let found = 0;
  for (let y = 3n; y < 19n; y++) {
    if (!isEd25519Point(littleEndian(y))) continue;
    found++;
    assert.equal(isEd25519Point(littleEndian(y + p)), false, `y = ${y} + p`);
  }
  assert.ok(found > 0);
});

Deno.test("P-256 point check refuses a coordinate given as x + p", () => {
  const p = 2n ** 256n - 2n ** 224n + 2n ** 192n + 2n ** 96n - 1n;
  const b = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;
  const pow = (base: bigint, e: bigint): bigint => {
    let r = 1n;
    base %= p;
    for (; e > 0n; e >>= 1n, base = base * base % p) if (e & 1n) r = r * base % p;
    return r;
  };
  for (let x = 0n;; x++) {
    const rhs = ((x * x * x - 3n * x + b) % p + p) % p;
    const y = pow(rhs, (p + 1n) / 4n);
    if (y * y % p !== rhs) continue;
    assert.equal(isP256Point(bigEndian(x), bigEndian(y)), true);
    assert.equal(isP256Point(bigEndian(x + p), bigEndian(y)), false);
    assert.equal(isP256Point(bigEndian(x), bigEndian(p - y)), true);
    break;
  }
});

Deno.test("Ed25519 point check: real keys pass; small-order, non-canonical and non-decodable fail", async () => {
  for (let i = 0; i < 5; i++) {
    const auth = await createAuthenticator(-8);
    assert.equal(isEd25519Point(auth.coseKey().get(-2) as Uint8Array), true);
  }
  const smallOrder = [
    "0100000000000000000000000000000000000000000000000000000000000000", // identity
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // order 2
    "0000000000000000000000000000000000000000000000000000000000000000", // order 4
    "0000000000000000000000000000000000000000000000000000000000000080", // order 4
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", // order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", // order 8
  ];
  for (const h of smallOrder) assert.equal(isEd25519Point(hex(h)), false, h);
  assert.equal(
    isEd25519Point(hex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")),
    false,
  ); // y = p
  assert.equal(isEd25519Point(hex("02" + "00".repeat(31))), false); // y = 2 is not on the curve
  assert.equal(isEd25519Point(new Uint8Array(31)), false);
});

Deno.test("verifyCredentialSignature fails closed for a key of another algorithm and a short EdDSA signature", async () => {
  const ed = await createAuthenticator(-8);
  const es = await createAuthenticator(-7);
  const edKey = (await importCoseKey(keyOf(ed.coseKey()))).key;
  const esSignature = await es.sign(data);
  assert.equal(await verifyCredentialSignature(edKey, -7, esSignature, data), false);
  assert.equal(await verifyCredentialSignature(edKey, -8, new Uint8Array(63), data), false);
});

Deno.test("isCoseAlgorithm knows exactly -8, -7 and -257", () => {
  assert.deepEqual([-8, -7, -257, -35, 0, "-7", -19].map(isCoseAlgorithm), [
    true,
    true,
    true,
    false,
    false,
    false,
    false,
  ]);
});
