import assert from "node:assert/strict";
import { encodeBase64Url, signCompactJWS, verifyCompactJWS } from "../../jose.ts";
import { prepareJWSKey, signWithSegment } from "../../src/jose/jws.ts";
import { jwsKeys } from "./_keys.ts";
import { flipBit, jsonSegment, textSegment, withHeader, withSegment } from "./_tokens.ts";

const PAYLOAD = new TextEncoder().encode('{"sub":"user-1"}');

async function hmacKey(hash = "SHA-256"): Promise<CryptoKey> {
  return await crypto.subtle.generateKey({ name: "HMAC", hash }, false, ["sign", "verify"]);
}

async function signedToken(key: CryptoKey): Promise<string> {
  return await signCompactJWS(PAYLOAD, key, { alg: "HS256", typ: "JWT" });
}

Deno.test("a JWS verifies and returns its payload and header", async () => {
  const key = await hmacKey();
  const { payload, header } = await verifyCompactJWS(await signedToken(key), key, { typ: "JWT" });
  assert.deepEqual(payload, PAYLOAD);
  assert.deepEqual(header, { alg: "HS256", typ: "JWT" });
});

Deno.test('alg "none" is refused', async () => {
  const key = await hmacKey();
  const token = `${jsonSegment({ alg: "none", typ: "JWT" })}.${encodeBase64Url(PAYLOAD)}.`;
  await assert.rejects(verifyCompactJWS(token, key), { code: "ERR_JOSE_ALG_NOT_ALLOWED" });
});

Deno.test("alg swap: an HS256 token keyed with the RSA public key's bytes is refused", async () => {
  const { verify: publicKey } = await jwsKeys("RS256");
  const spki = new Uint8Array(await crypto.subtle.exportKey("spki", publicKey));
  const pem = `-----BEGIN PUBLIC KEY-----\n${
    btoa(String.fromCharCode(...spki))
  }\n-----END PUBLIC KEY-----\n`;
  for (const secret of [spki, new TextEncoder().encode(pem)]) {
    const forged = await crypto.subtle.importKey(
      "raw",
      secret,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const token = await signCompactJWS(PAYLOAD, forged, { alg: "HS256" });
    await assert.rejects(verifyCompactJWS(token, publicKey), { code: "ERR_JOSE_ALG_NOT_ALLOWED" });
  }
});

Deno.test("a token of another HMAC strength is refused by the pinned key", async () => {
  const key = await hmacKey("SHA-384");
  const token = await signCompactJWS(PAYLOAD, await hmacKey(), { alg: "HS256" });
  await assert.rejects(verifyCompactJWS(token, key), { code: "ERR_JOSE_ALG_NOT_ALLOWED" });
});

Deno.test("the algorithms option narrows what the key allows", async () => {
  const key = await hmacKey();
  await assert.rejects(verifyCompactJWS(await signedToken(key), key, { algorithms: ["HS512"] }), {
    code: "ERR_JOSE_ALG_NOT_ALLOWED",
  });
});

Deno.test("a header with crit is refused even when correctly signed", async () => {
  const key = await hmacKey();
  const segment = jsonSegment({ alg: "HS256", crit: ["exp"], exp: 1 });
  const token = await signWithSegment(prepareJWSKey(key, "sign"), segment, PAYLOAD);
  await assert.rejects(verifyCompactJWS(token, key), { code: "ERR_JOSE_UNSUPPORTED_HEADER" });
});

Deno.test("signing refuses crit and b64 headers", async () => {
  const key = await hmacKey();
  await assert.rejects(signCompactJWS(PAYLOAD, key, { alg: "HS256", crit: ["b64"], b64: false }), {
    code: "ERR_JOSE_UNSUPPORTED_HEADER",
  });
});

Deno.test("a typ other than the required one is refused", async () => {
  const key = await hmacKey();
  await assert.rejects(verifyCompactJWS(await signedToken(key), key, { typ: "at+jwt" }), {
    code: "ERR_JOSE_TYP_MISMATCH",
  });
});

Deno.test("a missing typ is refused when one is required", async () => {
  const key = await hmacKey();
  const token = await signCompactJWS(PAYLOAD, key, { alg: "HS256" });
  await assert.rejects(verifyCompactJWS(token, key, { typ: "JWT" }), {
    code: "ERR_JOSE_TYP_MISMATCH",
  });
});

Deno.test("typ compares case-insensitively and ignores an application/ prefix", async () => {
  const key = await hmacKey();
  const token = await signCompactJWS(PAYLOAD, key, { alg: "HS256", typ: "application/JWT" });
  const { header } = await verifyCompactJWS(token, key, { typ: "jwt" });
  assert.equal(header.typ, "application/JWT");
});

Deno.test("a tampered header is refused", async () => {
  const key = await hmacKey();
  const token = withHeader(await signedToken(key), { kid: "other" });
  await assert.rejects(verifyCompactJWS(token, key), { code: "ERR_JWS_SIGNATURE_INVALID" });
});

Deno.test("a tampered payload is refused", async () => {
  const key = await hmacKey();
  const token = withSegment(await signedToken(key), 1, jsonSegment({ sub: "admin" }));
  await assert.rejects(verifyCompactJWS(token, key), { code: "ERR_JWS_SIGNATURE_INVALID" });
});

Deno.test("a tampered signature is refused", async () => {
  const key = await hmacKey();
  const token = flipBit(await signedToken(key), 2, -1);
  await assert.rejects(verifyCompactJWS(token, key), { code: "ERR_JWS_SIGNATURE_INVALID" });
});

Deno.test("an ECDSA signature of the wrong length is refused", async () => {
  const keys = await jwsKeys("ES256");
  const token = await signCompactJWS(PAYLOAD, keys.sign, { alg: "ES256" });
  const truncated = withSegment(token, 2, token.split(".")[2].slice(0, 80));
  await assert.rejects(verifyCompactJWS(truncated, keys.verify), {
    code: "ERR_JWS_SIGNATURE_INVALID",
  });
});

Deno.test("a token signed with another key is refused", async () => {
  const token = await signedToken(await hmacKey());
  await assert.rejects(verifyCompactJWS(token, await hmacKey()), {
    code: "ERR_JWS_SIGNATURE_INVALID",
  });
});

Deno.test("a token signed by another key pair is refused", async () => {
  const mine = await jwsKeys("EdDSA");
  const other = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
  const token = await signCompactJWS(PAYLOAD, other.privateKey, { alg: "EdDSA" });
  await assert.rejects(verifyCompactJWS(token, mine.verify), {
    code: "ERR_JWS_SIGNATURE_INVALID",
  });
});

Deno.test("a JWS with the wrong number of segments is malformed", async () => {
  const key = await hmacKey();
  const token = await signedToken(key);
  for (const bad of [token.split(".").slice(0, 2).join("."), `${token}.x`, "", "abc"]) {
    await assert.rejects(verifyCompactJWS(bad, key), { code: "ERR_JOSE_INVALID" });
  }
});

Deno.test("a JWS with bad base64url is malformed", async () => {
  const key = await hmacKey();
  const token = await signedToken(key);
  for (const segment of ["e30=", "e3!", "e30+", "e31"]) {
    await assert.rejects(verifyCompactJWS(withSegment(token, 0, segment), key), {
      code: "ERR_JOSE_INVALID",
    });
  }
  await assert.rejects(verifyCompactJWS(withSegment(token, 1, "a$b"), key), {
    code: "ERR_JOSE_INVALID",
  });
});

Deno.test("a JWS header that is not JSON is malformed", async () => {
  const key = await hmacKey();
  const token = withSegment(await signedToken(key), 0, textSegment('{"alg":"HS256"'));
  await assert.rejects(verifyCompactJWS(token, key), { code: "ERR_JOSE_INVALID" });
});

Deno.test("a JWS header that is JSON but not an object is malformed", async () => {
  const key = await hmacKey();
  for (const json of ['["HS256"]', "null", '"HS256"', "42"]) {
    const token = withSegment(await signedToken(key), 0, textSegment(json));
    await assert.rejects(verifyCompactJWS(token, key), { code: "ERR_JOSE_INVALID" });
  }
});

Deno.test("a token over 16 KiB is refused before parsing", async () => {
  const key = await hmacKey();
  await assert.rejects(verifyCompactJWS("!".repeat(16 * 1024 + 1), key), {
    code: "ERR_JOSE_TOO_LARGE",
  });
  await assert.rejects(verifyCompactJWS("!".repeat(16 * 1024), key), { code: "ERR_JOSE_INVALID" });
});

Deno.test("a non-string token is malformed", async () => {
  const key = await hmacKey();
  await assert.rejects(verifyCompactJWS(42 as unknown as string, key), {
    code: "ERR_JOSE_INVALID",
  });
});

Deno.test("signing refuses a header alg that does not match the key", async () => {
  const key = await hmacKey();
  await assert.rejects(signCompactJWS(PAYLOAD, key, { alg: "HS512" }), {
    code: "ERR_JOSE_KEY_INVALID",
  });
});

Deno.test("a public key cannot sign and a private key cannot verify", async () => {
  const keys = await jwsKeys("ES256");
  await assert.rejects(signCompactJWS(PAYLOAD, keys.verify, { alg: "ES256" }), {
    code: "ERR_JOSE_KEY_INVALID",
  });
  const token = await signCompactJWS(PAYLOAD, keys.sign, { alg: "ES256" });
  await assert.rejects(verifyCompactJWS(token, keys.sign), { code: "ERR_JOSE_KEY_INVALID" });
});

Deno.test("a key without the needed usage is refused", async () => {
  const key = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, [
    "verify",
  ]);
  await assert.rejects(signCompactJWS(PAYLOAD, key, { alg: "HS256" }), {
    code: "ERR_JOSE_KEY_INVALID",
  });
});

Deno.test("a key that cannot sign is refused for JWS", async () => {
  const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
    "encrypt",
  ]);
  await assert.rejects(signCompactJWS(PAYLOAD, key, { alg: "HS256" }), {
    code: "ERR_JOSE_KEY_INVALID",
  });
});
