import assert from "node:assert/strict";
import { countSubtle } from "./_subtle.ts";
import { decryptCompactJWE, encryptCompactJWE, type JWEHeader } from "../../jose.ts";
import { encryptWithKey } from "../../src/jose/jwe.ts";
import { jweKeys } from "./_keys.ts";
import { flipBit, headerOf, jsonSegment, textSegment, withHeader, withSegment } from "./_tokens.ts";

const PLAINTEXT = new TextEncoder().encode("the plaintext");
const decoder = new TextDecoder();

async function aesKey(length = 256): Promise<CryptoKey> {
  return await crypto.subtle.generateKey({ name: "AES-GCM", length }, false, [
    "encrypt",
    "decrypt",
  ]);
}

async function dirToken(key: CryptoKey, extra: Partial<JWEHeader> = {}): Promise<string> {
  return await encryptCompactJWE(PLAINTEXT, key, { alg: "dir", enc: "A256GCM", ...extra });
}

Deno.test("a JWE decrypts and returns its plaintext and header", async () => {
  const key = await aesKey();
  const token = await dirToken(key, { typ: "JWT", cty: "JWT" });
  const { plaintext, header } = await decryptCompactJWE(token, key, { typ: "JWT", cty: "JWT" });
  assert.deepEqual(plaintext, PLAINTEXT);
  assert.deepEqual(header, { alg: "dir", enc: "A256GCM", typ: "JWT", cty: "JWT" });
});

Deno.test("a JWE with zip is refused even when it decrypts", async () => {
  const key = await aesKey();
  const token = await encryptWithKey(
    key,
    { alg: "dir", enc: "A256GCM", zip: "DEF" },
    PLAINTEXT,
  );
  await assert.rejects(decryptCompactJWE(token, key), { code: "ERR_JOSE_UNSUPPORTED_HEADER" });
});

Deno.test("encrypting refuses zip, crit and a caller-set epk", async () => {
  const key = await aesKey();
  for (const extra of [{ zip: "DEF" }, { crit: ["exp"] }, { epk: {} }]) {
    await assert.rejects(dirToken(key, extra as Partial<JWEHeader>), {
      code: "ERR_JOSE_UNSUPPORTED_HEADER",
    });
  }
});

Deno.test("a JWE with crit is refused", async () => {
  const key = await aesKey();
  const token = await encryptWithKey(
    key,
    { alg: "dir", enc: "A256GCM", crit: ["exp"], exp: 1 },
    PLAINTEXT,
  );
  await assert.rejects(decryptCompactJWE(token, key), { code: "ERR_JOSE_UNSUPPORTED_HEADER" });
});

Deno.test("a PBES2 JWE with a huge p2c is refused at once, without key derivation", async () => {
  const key = await aesKey();
  const header = {
    alg: "PBES2-HS512+A256KW",
    enc: "A256GCM",
    p2c: 2_000_000_000,
    p2s: "c2FsdHNhbHRzYWx0",
  };
  const token = withSegment(await dirToken(key), 0, jsonSegment(header));
  const calls = await countSubtle(() =>
    assert.rejects(decryptCompactJWE(token, key), { code: "ERR_JOSE_ALG_NOT_ALLOWED" })
  );
  assert.deepEqual(calls, {}, "refused before any Web Crypto call");
});

Deno.test("RSA1_5 and unsupported enc values are refused", async () => {
  const key = await aesKey();
  const token = await dirToken(key);
  for (
    const header of [{ alg: "RSA1_5", enc: "A256GCM" }, { alg: "dir", enc: "A128GCM" }, {
      alg: "dir",
      enc: "A256CBC-HS512",
    }, { alg: "dir" }]
  ) {
    await assert.rejects(decryptCompactJWE(withSegment(token, 0, jsonSegment(header)), key), {
      code: "ERR_JOSE_ALG_NOT_ALLOWED",
    });
  }
});

Deno.test("a key-wrapped JWE is refused by a dir key (the key pins the algorithm)", async () => {
  const kw = await jweKeys("A256KW", 32);
  const token = await encryptCompactJWE(PLAINTEXT, kw.encrypt, { alg: "A256KW", enc: "A256GCM" });
  await assert.rejects(decryptCompactJWE(token, await aesKey()), {
    code: "ERR_JOSE_ALG_NOT_ALLOWED",
  });
});

Deno.test("a wrong typ is refused", async () => {
  const key = await aesKey();
  await assert.rejects(
    decryptCompactJWE(await dirToken(key, { typ: "csrf+jwt" }), key, { typ: "JWT" }),
    {
      code: "ERR_JOSE_TYP_MISMATCH",
    },
  );
});

Deno.test("a wrong or missing cty is refused", async () => {
  const key = await aesKey();
  await assert.rejects(
    decryptCompactJWE(await dirToken(key, { cty: "json" }), key, { cty: "JWT" }),
    {
      code: "ERR_JOSE_TYP_MISMATCH",
    },
  );
  await assert.rejects(decryptCompactJWE(await dirToken(key), key, { cty: "JWT" }), {
    code: "ERR_JOSE_TYP_MISMATCH",
  });
});

Deno.test("cty null requires that the token has none", async () => {
  const key = await aesKey();
  await assert.rejects(decryptCompactJWE(await dirToken(key, { cty: "JWT" }), key, { cty: null }), {
    code: "ERR_JOSE_TYP_MISMATCH",
  });
  const { plaintext } = await decryptCompactJWE(await dirToken(key), key, { cty: null });
  assert.deepEqual(plaintext, PLAINTEXT);
});

Deno.test("a tampered protected header fails authentication", async () => {
  const key = await aesKey();
  const token = withHeader(await dirToken(key), { kid: "x" });
  await assert.rejects(decryptCompactJWE(token, key), { code: "ERR_JWE_DECRYPTION_FAILED" });
});

Deno.test("a tampered IV fails authentication", async () => {
  const key = await aesKey();
  await assert.rejects(decryptCompactJWE(flipBit(await dirToken(key), 2), key), {
    code: "ERR_JWE_DECRYPTION_FAILED",
  });
});

Deno.test("an IV of the wrong length is refused", async () => {
  const key = await aesKey();
  const token = withSegment(await dirToken(key), 2, "AAAAAAAAAAAAAAAA");
  await assert.rejects(decryptCompactJWE(token, key), { code: "ERR_JWE_DECRYPTION_FAILED" });
});

Deno.test("a tampered ciphertext fails authentication", async () => {
  const key = await aesKey();
  await assert.rejects(decryptCompactJWE(flipBit(await dirToken(key), 3), key), {
    code: "ERR_JWE_DECRYPTION_FAILED",
  });
});

Deno.test("a tampered tag fails authentication", async () => {
  const key = await aesKey();
  await assert.rejects(decryptCompactJWE(flipBit(await dirToken(key), 4, -1), key), {
    code: "ERR_JWE_DECRYPTION_FAILED",
  });
});

Deno.test("a tampered or truncated CBC-HS tag fails authentication", async () => {
  const key = crypto.getRandomValues(new Uint8Array(32));
  const token = await encryptCompactJWE(PLAINTEXT, key, { alg: "dir", enc: "A128CBC-HS256" });
  const options = { algorithms: ["dir" as const] };
  assert.deepEqual((await decryptCompactJWE(token, key, options)).plaintext, PLAINTEXT);
  for (const bad of [flipBit(token, 4), flipBit(token, 3), withSegment(token, 4, "AAAA")]) {
    await assert.rejects(decryptCompactJWE(bad, key, options), {
      code: "ERR_JWE_DECRYPTION_FAILED",
    });
  }
});

Deno.test("a tampered encrypted key fails", async () => {
  const keys = await jweKeys("A256KW", 32);
  const token = await encryptCompactJWE(PLAINTEXT, keys.encrypt, { alg: "A256KW", enc: "A256GCM" });
  await assert.rejects(decryptCompactJWE(flipBit(token, 1), keys.decrypt), {
    code: "ERR_JWE_DECRYPTION_FAILED",
  });
});

for (const alg of ["dir", "A128KW", "RSA-OAEP-256", "ECDH-ES+A256KW", "ECDH-ES"] as const) {
  Deno.test(`${alg}: a token for another key fails to decrypt`, async () => {
    const mine = await jweKeys(alg, 32);
    const theirs = alg === "RSA-OAEP-256"
      ? await crypto.subtle.generateKey(
        {
          name: "RSA-OAEP",
          hash: "SHA-256",
          modulusLength: 2048,
          publicExponent: new Uint8Array([1, 0, 1]),
        },
        false,
        ["encrypt", "decrypt"],
      ).then((pair) => ({ encrypt: pair.publicKey }))
      : await jweKeys(alg, 32);
    const token = await encryptCompactJWE(PLAINTEXT, theirs.encrypt, { alg, enc: "A256GCM" });
    await assert.rejects(
      decryptCompactJWE(token, mine.decrypt, { algorithms: [alg] }),
      { code: "ERR_JWE_DECRYPTION_FAILED" },
    );
  });
}

Deno.test("dir with a non-empty encrypted key segment is malformed", async () => {
  const key = await aesKey();
  const token = withSegment(await dirToken(key), 1, "AAAA");
  await assert.rejects(decryptCompactJWE(token, key), { code: "ERR_JOSE_INVALID" });
});

Deno.test("key wrapping with an empty encrypted key segment is malformed", async () => {
  const keys = await jweKeys("A128KW", 16);
  const token = await encryptCompactJWE(PLAINTEXT, keys.encrypt, { alg: "A128KW", enc: "A128GCM" });
  await assert.rejects(decryptCompactJWE(withSegment(token, 1, ""), keys.decrypt), {
    code: "ERR_JOSE_INVALID",
  });
});

Deno.test("ECDH-ES: an epk on another curve, missing or off the curve is refused", async () => {
  const keys = await jweKeys("ECDH-ES", 32);
  const token = await encryptCompactJWE(PLAINTEXT, keys.encrypt, {
    alg: "ECDH-ES",
    enc: "A256GCM",
  });
  const epk = headerOf(token).epk as Record<string, string>;
  const other = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-384" }, true, [
    "deriveBits",
  ]);
  const p384 = await crypto.subtle.exportKey("jwk", other.publicKey);
  const offCurve = { ...epk, y: epk.x };
  for (const bad of [{ kty: "EC", crv: "P-384", x: p384.x, y: p384.y }, undefined, offCurve, "x"]) {
    await assert.rejects(decryptCompactJWE(withHeader(token, { epk: bad }), keys.decrypt), {
      code: "ERR_JOSE_INVALID",
    });
  }
});

Deno.test("a JWE with the wrong number of segments is malformed", async () => {
  const key = await aesKey();
  const token = await dirToken(key);
  for (const bad of [token.split(".").slice(0, 4).join("."), `${token}.x`, "a.b.c"]) {
    await assert.rejects(decryptCompactJWE(bad, key), { code: "ERR_JOSE_INVALID" });
  }
});

Deno.test("a JWE with bad base64url or a non-object header is malformed", async () => {
  const key = await aesKey();
  const token = await dirToken(key);
  for (
    const bad of [
      withSegment(token, 3, "ab%d"),
      withSegment(token, 0, "e30="),
      withSegment(token, 0, textSegment("[]")),
      withSegment(token, 0, textSegment("{")),
    ]
  ) {
    await assert.rejects(decryptCompactJWE(bad, key), { code: "ERR_JOSE_INVALID" });
  }
});

Deno.test("a JWE over 16 KiB is refused before parsing", async () => {
  const key = await aesKey();
  const big = await encryptCompactJWE(new Uint8Array(13_000), key, { alg: "dir", enc: "A256GCM" });
  assert.ok(big.length > 16 * 1024);
  await assert.rejects(decryptCompactJWE(big, key), { code: "ERR_JOSE_TOO_LARGE" });
});

Deno.test("a byte key needs algorithms to decrypt", async () => {
  const key = crypto.getRandomValues(new Uint8Array(32));
  const token = await encryptCompactJWE(PLAINTEXT, key, { alg: "dir", enc: "A256GCM" });
  await assert.rejects(decryptCompactJWE(token, key), { code: "ERR_JOSE_KEY_INVALID" });
  const { plaintext } = await decryptCompactJWE(token, key, { algorithms: ["dir"] });
  assert.equal(decoder.decode(plaintext), "the plaintext");
});

Deno.test("encrypting needs the public half and decrypting the private half", async () => {
  const keys = await jweKeys("ECDH-ES+A128KW", 16);
  await assert.rejects(
    encryptCompactJWE(PLAINTEXT, keys.decrypt, { alg: "ECDH-ES+A128KW", enc: "A128GCM" }),
    { code: "ERR_JOSE_KEY_INVALID" },
  );
  const token = await encryptCompactJWE(PLAINTEXT, keys.encrypt, {
    alg: "ECDH-ES+A128KW",
    enc: "A128GCM",
  });
  await assert.rejects(decryptCompactJWE(token, keys.encrypt), { code: "ERR_JOSE_KEY_INVALID" });
});

Deno.test("encrypting refuses a key that does not fit alg and enc", async () => {
  const key = await aesKey(128);
  await assert.rejects(dirToken(key), { code: "ERR_JOSE_KEY_INVALID" });
  await assert.rejects(
    encryptCompactJWE(PLAINTEXT, key, { alg: "PBES2-HS256+A128KW" as "dir", enc: "A128GCM" }),
    { code: "ERR_JOSE_ALG_NOT_ALLOWED" },
  );
});

Deno.test("encrypting refuses an RSA-OAEP key with SHA-1 (it is not RSA-OAEP-256)", async () => {
  const pair = await crypto.subtle.generateKey(
    {
      name: "RSA-OAEP",
      hash: "SHA-1",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
    },
    false,
    ["encrypt", "decrypt"],
  );
  await assert.rejects(
    encryptCompactJWE(PLAINTEXT, pair.publicKey, { alg: "RSA-OAEP-256", enc: "A256GCM" }),
    { code: "ERR_JOSE_KEY_INVALID" },
  );
});
