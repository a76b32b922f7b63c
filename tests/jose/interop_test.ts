/**
 * Interoperability with `npm:jose@6`, both ways, for every supported algorithm
 * and for each mode of `createJose`.
 *
 * @module
 */

import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only oracle; deno.json has no import map.
import * as jose from "npm:jose@6";
import {
  createJose,
  decryptCompactJWE,
  encryptCompactJWE,
  type JWEAlgorithm,
  signCompactJWS,
  verifyCompactJWS,
} from "../../jose.ts";
import {
  CONTENT,
  JWE_ALGORITHMS,
  JWE_ENCRYPTIONS,
  JWS_ALGORITHMS,
} from "../../src/jose/algorithms.ts";
import { documentedKeys, jweKeys, jwsKeys } from "./_keys.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const PAYLOAD = encoder.encode('{"hello":"world","n":1}');

for (const alg of JWS_ALGORITHMS) {
  Deno.test(`JWS ${alg}: our token verifies with jose`, async () => {
    const keys = await jwsKeys(alg);
    const token = await signCompactJWS(PAYLOAD, keys.sign, { alg, typ: "JWT" });
    const result = await jose.compactVerify(token, keys.verify, { algorithms: [alg] });
    assert.deepEqual(result.payload, PAYLOAD);
    assert.equal(result.protectedHeader.typ, "JWT");
  });

  Deno.test(`JWS ${alg}: jose's token verifies here`, async () => {
    const keys = await jwsKeys(alg);
    const token = await new jose.CompactSign(PAYLOAD)
      .setProtectedHeader({ alg, typ: "JWT" })
      .sign(keys.sign);
    const { payload, header } = await verifyCompactJWS(token, keys.verify, { typ: "JWT" });
    assert.deepEqual(payload, PAYLOAD);
    assert.equal(header.alg, alg);
  });
}

function decryptOptions(alg: JWEAlgorithm) {
  return alg === "dir" ? { algorithms: [alg] } : {};
}

for (const alg of JWE_ALGORITHMS) {
  for (const enc of JWE_ENCRYPTIONS) {
    Deno.test(`JWE ${alg} + ${enc}: our token decrypts with jose`, async () => {
      const keys = await jweKeys(alg, CONTENT[enc].keyBytes);
      const token = await encryptCompactJWE(PAYLOAD, keys.encrypt, { alg, enc, cty: "json" });
      const result = await jose.compactDecrypt(token, keys.decrypt);
      assert.deepEqual(result.plaintext, PAYLOAD);
      assert.equal(result.protectedHeader.enc, enc);
    });

    Deno.test(`JWE ${alg} + ${enc}: jose's token decrypts here`, async () => {
      const keys = await jweKeys(alg, CONTENT[enc].keyBytes);
      const token = await new jose.CompactEncrypt(PAYLOAD)
        .setProtectedHeader({ alg, enc })
        .encrypt(keys.encrypt);
      const { plaintext, header } = await decryptCompactJWE(
        token,
        keys.decrypt,
        decryptOptions(alg),
      );
      assert.deepEqual(plaintext, PAYLOAD);
      assert.equal(header.alg, alg);
    });
  }
}

async function sealedSecret() {
  const sign = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  const encrypt = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
  return { sign, encrypt };
}

Deno.test("sealed mode: our token opens with jose (compactDecrypt, then jwtVerify)", async () => {
  const secret = await sealedSecret();
  const token = await createJose(secret).encodeJWT({ sub: "user-1" });
  const outer = await jose.compactDecrypt(token, secret.encrypt);
  const { kid } = outer.protectedHeader;
  assert.deepEqual(outer.protectedHeader, {
    alg: "dir",
    enc: "A256GCM",
    kid,
    cty: "JWT",
    typ: "JWT",
  });
  const inner = await jose.jwtVerify(decoder.decode(outer.plaintext), secret.sign, {
    typ: "JWT",
    algorithms: ["HS256"],
  });
  assert.equal(inner.payload.sub, "user-1");
});

Deno.test("sealed mode: jose's nested token opens here", async () => {
  const secret = await sealedSecret();
  const inner = await new jose.SignJWT({ sub: "user-2" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(secret.sign);
  const token = await new jose.CompactEncrypt(encoder.encode(inner))
    .setProtectedHeader({ alg: "dir", enc: "A256GCM", cty: "JWT", typ: "JWT" })
    .encrypt(secret.encrypt);
  const claims = await createJose(secret).decodeJWT(token);
  assert.equal(claims.sub, "user-2");
});

Deno.test("signed mode with an RS256 pair: tokens go both ways", async () => {
  const keys = await jwsKeys("RS256");
  const pair = { privateKey: keys.sign, publicKey: keys.verify };
  const ours = createJose(pair, { mode: "signed" });
  const verified = await jose.jwtVerify(await ours.encodeJWT({ sub: "a" }), keys.verify, {
    typ: "JWT",
    algorithms: ["RS256"],
  });
  assert.equal(verified.payload.sub, "a");
  const theirs = await new jose.SignJWT({ sub: "b" })
    .setProtectedHeader({ alg: "RS256", typ: "JWT" })
    .setExpirationTime("1h")
    .sign(keys.sign);
  assert.equal((await ours.decodeJWT(theirs)).sub, "b");
});

Deno.test("encrypted mode with an ECDH pair: tokens go both ways", async () => {
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, [
    "deriveBits",
  ]);
  const ours = createJose(pair, { mode: "encrypted" });
  const decrypted = await jose.jwtDecrypt(await ours.encodeJWT({ sub: "a" }), pair.privateKey, {
    typ: "JWT",
    keyManagementAlgorithms: ["ECDH-ES+A256KW"],
  });
  assert.equal(decrypted.payload.sub, "a");
  const theirs = await new jose.EncryptJWT({ sub: "b" })
    .setProtectedHeader({ alg: "ECDH-ES+A256KW", enc: "A256GCM", typ: "JWT" })
    .setExpirationTime("1h")
    .encrypt(pair.publicKey);
  assert.equal((await ours.decodeJWT(theirs)).sub, "b");
});

const SECRET = "an-example-secret-that-is-long-enough-to-use";

Deno.test("a string secret derives the documented HKDF keys (jose opens the sealed token)", async () => {
  const keys = await documentedKeys(SECRET, "session");
  const token = await createJose(SECRET).encodeJWT({ sub: "derived" });
  const outer = await jose.compactDecrypt(token, keys.encrypt);
  const inner = await jose.jwtVerify(decoder.decode(outer.plaintext), keys.sign, { typ: "JWT" });
  assert.equal(inner.payload.sub, "derived");
});

Deno.test("the salt option replaces SHA-256(secret) as the HKDF salt", async () => {
  const keys = await documentedKeys(SECRET, "csrf", "pepper");
  const token = await createJose(SECRET, { purpose: "csrf", salt: "pepper", mode: "signed" })
    .encodeJWT({ sub: "salted" });
  const verified = await jose.jwtVerify(token, keys.sign, { typ: "csrf+jwt" });
  assert.equal(verified.payload.sub, "salted");
});

Deno.test("a token jose seals with the derived keys opens with createJose", async () => {
  const keys = await documentedKeys(SECRET, "session");
  const inner = await new jose.SignJWT({ sub: "from-jose" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setExpirationTime("1h")
    .sign(keys.sign);
  const token = await new jose.CompactEncrypt(encoder.encode(inner))
    .setProtectedHeader({ alg: "dir", enc: "A256GCM", cty: "JWT", typ: "JWT" })
    .encrypt(keys.encrypt);
  assert.equal((await createJose(SECRET).decodeJWT(token)).sub, "from-jose");
});

Deno.test("encrypted mode with a string secret: jose decrypts the JWT with the derived key", async () => {
  const keys = await documentedKeys(SECRET, "session");
  const token = await createJose(SECRET, { mode: "encrypted" }).encodeJWT({ sub: "e" });
  const decrypted = await jose.jwtDecrypt(token, keys.encrypt, { typ: "JWT" });
  assert.equal(decrypted.payload.sub, "e");
});

Deno.test("encryptJWE output decrypts with jose, and jose's JWE with decryptJWE", async () => {
  const keys = await documentedKeys(SECRET, "session");
  const ours = createJose(SECRET);
  const token = await ours.encryptJWE("plain text", { cty: "text/plain" });
  const result = await jose.compactDecrypt(token, keys.encrypt);
  assert.equal(decoder.decode(result.plaintext), "plain text");
  const theirs = await new jose.CompactEncrypt(encoder.encode("from jose"))
    .setProtectedHeader({ alg: "dir", enc: "A256GCM", typ: "JWT" })
    .encrypt(keys.encrypt);
  assert.equal(await ours.decryptJWE(theirs), "from jose");
});

Deno.test("encryptJWE writes no typ, and jose decrypts it with and without cty", async () => {
  const keys = await documentedKeys(SECRET, "session");
  const ours = createJose(SECRET);
  for (const cty of [undefined, "text/plain"]) {
    const token = await ours.encryptJWE("plain text", cty === undefined ? undefined : { cty });
    const result = await jose.compactDecrypt(token, keys.encrypt);
    assert.equal(decoder.decode(result.plaintext), "plain text");
    assert.equal(result.protectedHeader.typ, undefined);
    assert.equal(result.protectedHeader.cty, cty);
  }
});

for (const typ of [undefined, "JOSE", "application/example+jwe"]) {
  Deno.test(`decryptJWE reads jose's CompactEncrypt output with typ ${typ}`, async () => {
    const keys = await documentedKeys(SECRET, "session");
    const header = { alg: "dir", enc: "A256GCM", ...(typ === undefined ? {} : { typ }) };
    const theirs = await new jose.CompactEncrypt(encoder.encode("from jose"))
      .setProtectedHeader(header)
      .encrypt(keys.encrypt);
    assert.equal(await createJose(SECRET).decryptJWE(theirs), "from jose");
  });
}

Deno.test("decryptJWE reads a jose JWE with cty when asked for it, and refuses it otherwise", async () => {
  const keys = await documentedKeys(SECRET, "session");
  const theirs = await new jose.CompactEncrypt(encoder.encode("<p>hi</p>"))
    .setProtectedHeader({ alg: "dir", enc: "A256GCM", cty: "text/html" })
    .encrypt(keys.encrypt);
  const ours = createJose(SECRET);
  assert.equal(await ours.decryptJWE(theirs, { cty: "text/html" }), "<p>hi</p>");
  await assert.rejects(ours.decryptJWE(theirs), { code: "ERR_JOSE_TYP_MISMATCH" });
});

// RFC 7519 A.2: a Nested JWT's outer JWE says what it holds with cty "JWT" and has no typ.

/** A JWT signed then encrypted by jose as RFC 7519 A.2 nests it: cty "JWT", no outer typ. */
async function nestedByJose(
  keys: { sign: CryptoKey; encrypt: CryptoKey },
  algs: { alg: string; keyAlg: string },
  headers: { innerTyp: string; outer?: Record<string, string> },
): Promise<string> {
  const inner = await new jose.SignJWT({ sub: "nested" })
    .setProtectedHeader({ alg: algs.alg, typ: headers.innerTyp })
    .setExpirationTime("1h")
    .sign(keys.sign);
  return await new jose.CompactEncrypt(encoder.encode(inner))
    .setProtectedHeader({ alg: algs.keyAlg, enc: "A256GCM", cty: "JWT", ...headers.outer })
    .encrypt(keys.encrypt);
}

const HS_DIR = { alg: "HS256", keyAlg: "dir" };

Deno.test("RFC 7519 A.2: jose's nested JWT (outer cty JWT, no typ) opens with a string secret", async () => {
  const keys = await documentedKeys(SECRET, "session");
  const token = await nestedByJose(keys, HS_DIR, { innerTyp: "JWT" });
  assert.equal(jose.decodeProtectedHeader(token).typ, undefined);
  assert.equal((await createJose(SECRET).decodeJWT(token)).sub, "nested");
});

Deno.test("RFC 7519 A.2: jose's nested JWT with RSA on both layers opens with a CryptoSecret", async () => {
  const signing = await jwsKeys("RS256");
  const encrypting = await jweKeys("RSA-OAEP-256", 32);
  const token = await nestedByJose(
    { sign: signing.sign, encrypt: encrypting.encrypt as CryptoKey },
    { alg: "RS256", keyAlg: "RSA-OAEP-256" },
    { innerTyp: "JWT" },
  );
  const ours = createJose({
    sign: { privateKey: signing.sign, publicKey: signing.verify },
    encrypt: {
      privateKey: encrypting.decrypt as CryptoKey,
      publicKey: encrypting.encrypt as CryptoKey,
    },
  });
  assert.equal((await ours.decodeJWT(token)).sub, "nested");
});

Deno.test("RFC 7519 A.2: without an outer typ, the inner typ still decides the purpose", async () => {
  const keys = await documentedKeys(SECRET, "session");
  const token = await nestedByJose(keys, HS_DIR, { innerTyp: "csrf+jwt" });
  await assert.rejects(createJose(SECRET).decodeJWT(token), { code: "ERR_JOSE_TYP_MISMATCH" });
});

Deno.test("a nested JWT whose outer typ names another purpose is refused", async () => {
  const keys = await documentedKeys(SECRET, "session");
  for (const typ of ["csrf+jwt", "at+jwt", "JOSE"]) {
    const token = await nestedByJose(keys, HS_DIR, { innerTyp: "JWT", outer: { typ } });
    await assert.rejects(
      createJose(SECRET).decodeJWT(token),
      { code: "ERR_JOSE_TYP_MISMATCH" },
      typ,
    );
  }
});

Deno.test("a nested JWT whose outer JWE lacks cty JWT is refused", async () => {
  const keys = await documentedKeys(SECRET, "session");
  const inner = await new jose.SignJWT({ sub: "nested" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setExpirationTime("1h")
    .sign(keys.sign);
  for (const header of [{}, { cty: "json" }, { typ: "JWT" }]) {
    const token = await new jose.CompactEncrypt(encoder.encode(inner))
      .setProtectedHeader({ alg: "dir", enc: "A256GCM", ...header })
      .encrypt(keys.encrypt);
    await assert.rejects(createJose(SECRET).decodeJWT(token), { code: "ERR_JOSE_TYP_MISMATCH" });
  }
});

Deno.test("encrypted mode still requires typ: a JWE without it is refused", async () => {
  const keys = await documentedKeys(SECRET, "session");
  const token = await new jose.EncryptJWT({ sub: "e" })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setExpirationTime("1h")
    .encrypt(keys.encrypt);
  await assert.rejects(createJose(SECRET, { mode: "encrypted" }).decodeJWT(token), {
    code: "ERR_JOSE_TYP_MISMATCH",
  });
});

Deno.test("the kid of a key pair is the RFC 7638 thumbprint jose computes for its public key", async () => {
  for (const alg of ["RS256", "ES256", "EdDSA"] as const) {
    const keys = await jwsKeys(alg);
    const pair = { privateKey: keys.sign, publicKey: keys.verify };
    const token = await createJose(pair, { mode: "signed" }).encodeJWT({});
    const expected = await jose.calculateJwkThumbprint(await jose.exportJWK(keys.verify));
    assert.equal(jose.decodeProtectedHeader(token).kid, expected, alg);
  }
});
