import assert from "node:assert/strict";
import {
  decodeBase64Url,
  decryptCompactJWE,
  encryptCompactJWE,
  signCompactJWS,
  verifyCompactJWS,
} from "../../jose.ts";
import { encryptWithKey } from "../../src/jose/jwe.ts";
import { prepareJWSKey, signWithSegment } from "../../src/jose/jws.ts";
import type { JWEHeader, JWSHeader } from "../../src/jose/types.ts";
import { importJwk, importPair, octBytes, publicJwk } from "./_keys.ts";
import {
  RFC7515_A1,
  RFC7515_A2,
  RFC7515_A3,
  RFC7515_CLAIMS,
  RFC7516_A3,
  RFC7520_4_1,
  RFC7520_4_2,
  RFC7520_4_3,
  RFC7520_4_4,
  RFC7520_5_3_TOKEN,
  RFC7520_5_4,
  RFC7520_5_5,
  RFC7520_5_6,
  RFC7520_5_8,
  RFC7520_5_9_TOKEN,
  RFC7520_PAYLOAD,
  RFC7520_PLAINTEXT,
  RFC8037_A4,
} from "./_vectors.ts";

const text = new TextDecoder();
const bytes = (value: string) => decodeBase64Url(value) as Uint8Array<ArrayBuffer>;

/** Re-signs the signing input of a vector token under its own header segment. */
async function resign(token: string, key: CryptoKey): Promise<string> {
  const [header, payload] = token.split(".");
  return await signWithSegment(prepareJWSKey(key, "sign"), header, bytes(payload));
}

Deno.test("RFC 7515 A.1: the HS256 example verifies and re-signs to the same token", async () => {
  const key = await importJwk(RFC7515_A1.key, { name: "HMAC", hash: "SHA-256" }, [
    "sign",
    "verify",
  ]);
  const { payload, header } = await verifyCompactJWS(RFC7515_A1.token, key, { typ: "JWT" });
  assert.deepEqual(JSON.parse(text.decode(payload)), RFC7515_CLAIMS);
  assert.equal(header.alg, "HS256");
  assert.equal(await resign(RFC7515_A1.token, key), RFC7515_A1.token);
});

Deno.test("RFC 7515 A.2: the RS256 example verifies and re-signs to the same token", async () => {
  const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
  const pair = await importPair(RFC7515_A2.key, algorithm, ["sign"], ["verify"]);
  const { payload } = await verifyCompactJWS(RFC7515_A2.token, pair.publicKey);
  assert.deepEqual(JSON.parse(text.decode(payload)), RFC7515_CLAIMS);
  assert.equal(await resign(RFC7515_A2.token, pair.privateKey), RFC7515_A2.token);
});

Deno.test("RFC 7515 A.3: the ES256 example verifies", async () => {
  const key = await importJwk(publicJwk(RFC7515_A3.key), {
    name: "ECDSA",
    namedCurve: "P-256",
  }, ["verify"]);
  const { payload } = await verifyCompactJWS(RFC7515_A3.token, key);
  assert.deepEqual(JSON.parse(text.decode(payload)), RFC7515_CLAIMS);
});

Deno.test("RFC 7516 A.3: the A128KW + A128CBC-HS256 example decrypts", async () => {
  const key = await crypto.subtle.importKey("raw", octBytes(RFC7516_A3.key), "AES-KW", false, [
    "unwrapKey",
  ]);
  const { plaintext, header } = await decryptCompactJWE(RFC7516_A3.token, key);
  assert.equal(text.decode(plaintext), RFC7516_A3.plaintext);
  assert.equal(header.enc, "A128CBC-HS256");
});

Deno.test("RFC 7516 A.3: encrypting with the example's CEK and IV gives the same token", async () => {
  const key = await crypto.subtle.importKey("raw", octBytes(RFC7516_A3.key), "AES-KW", false, [
    "wrapKey",
  ]);
  const token = await encryptWithKey(
    key,
    { alg: "A128KW", enc: "A128CBC-HS256" },
    new TextEncoder().encode(RFC7516_A3.plaintext),
    undefined,
    { cek: new Uint8Array(RFC7516_A3.cek), iv: new Uint8Array(RFC7516_A3.iv) },
  );
  assert.equal(token, RFC7516_A3.token);
});

Deno.test("RFC 7520 4.1: RS256 signing reproduces the example", async () => {
  const pair = await importPair(
    RFC7520_4_1.key,
    {
      name: "RSASSA-PKCS1-v1_5",
      hash: "SHA-256",
    },
    ["sign"],
    ["verify"],
  );
  const token = await signCompactJWS(
    RFC7520_PAYLOAD,
    pair.privateKey,
    RFC7520_4_1.header as JWSHeader,
  );
  assert.equal(token, RFC7520_4_1.token);
  const { payload } = await verifyCompactJWS(token, pair.publicKey);
  assert.equal(text.decode(payload), RFC7520_PAYLOAD);
});

Deno.test("RFC 7520 4.2: the PS384 example verifies", async () => {
  const key = await importJwk(publicJwk(RFC7520_4_2.key), {
    name: "RSA-PSS",
    hash: "SHA-384",
  }, ["verify"]);
  const { payload } = await verifyCompactJWS(RFC7520_4_2.token, key);
  assert.equal(text.decode(payload), RFC7520_PAYLOAD);
});

Deno.test("RFC 7520 4.3: the ES512 example verifies", async () => {
  const key = await importJwk(publicJwk(RFC7520_4_3.key), {
    name: "ECDSA",
    namedCurve: "P-521",
  }, ["verify"]);
  const { payload } = await verifyCompactJWS(RFC7520_4_3.token, key);
  assert.equal(text.decode(payload), RFC7520_PAYLOAD);
});

Deno.test("RFC 7520 4.4: HS256 signing reproduces the example", async () => {
  const key = await importJwk(RFC7520_4_4.key, { name: "HMAC", hash: "SHA-256" }, [
    "sign",
    "verify",
  ]);
  const token = await signCompactJWS(RFC7520_PAYLOAD, key, RFC7520_4_4.header as JWSHeader);
  assert.equal(token, RFC7520_4_4.token);
  const { payload } = await verifyCompactJWS(token, key);
  assert.equal(text.decode(payload), RFC7520_PAYLOAD);
});

Deno.test("RFC 7520 5.4: the ECDH-ES+A128KW + A128GCM example decrypts", async () => {
  const key = await importJwk(RFC7520_5_4.key, { name: "ECDH", namedCurve: "P-384" }, [
    "deriveBits",
  ]);
  const { plaintext } = await decryptCompactJWE(RFC7520_5_4.token, key);
  assert.equal(text.decode(plaintext), RFC7520_PLAINTEXT);
});

Deno.test("RFC 7520 5.5: the ECDH-ES + A128CBC-HS256 example decrypts", async () => {
  const key = await importJwk(RFC7520_5_5.key, { name: "ECDH", namedCurve: "P-256" }, [
    "deriveBits",
  ]);
  const { plaintext } = await decryptCompactJWE(RFC7520_5_5.token, key);
  assert.equal(text.decode(plaintext), RFC7520_PLAINTEXT);
});

Deno.test("RFC 7520 5.6: the dir + A128GCM example decrypts and re-encrypts with its IV", async () => {
  const key = await crypto.subtle.importKey("raw", octBytes(RFC7520_5_6.key), "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
  const { plaintext } = await decryptCompactJWE(RFC7520_5_6.token, key);
  assert.equal(text.decode(plaintext), RFC7520_PLAINTEXT);
  const token = await encryptWithKey(
    key,
    RFC7520_5_6.header as JWEHeader,
    new TextEncoder().encode(RFC7520_PLAINTEXT),
    undefined,
    { iv: bytes(RFC7520_5_6.iv) },
  );
  assert.equal(token, RFC7520_5_6.token);
});

Deno.test("RFC 7520 5.8: the A128KW + A128GCM example decrypts and re-encrypts with its CEK and IV", async () => {
  const key = await crypto.subtle.importKey("raw", octBytes(RFC7520_5_8.key), "AES-KW", false, [
    "wrapKey",
    "unwrapKey",
  ]);
  const { plaintext } = await decryptCompactJWE(RFC7520_5_8.token, key);
  assert.equal(text.decode(plaintext), RFC7520_PLAINTEXT);
  const token = await encryptWithKey(
    key,
    RFC7520_5_8.header as JWEHeader,
    new TextEncoder().encode(RFC7520_PLAINTEXT),
    undefined,
    { cek: bytes(RFC7520_5_8.cek), iv: bytes(RFC7520_5_8.iv) },
  );
  assert.equal(token, RFC7520_5_8.token);
});

Deno.test("RFC 7520 5.8: the example also decrypts with the key as bytes", async () => {
  const { plaintext } = await decryptCompactJWE(RFC7520_5_8.token, octBytes(RFC7520_5_8.key), {
    algorithms: ["A128KW"],
  });
  assert.equal(text.decode(plaintext), RFC7520_PLAINTEXT);
});

Deno.test("RFC 7520 5.9: the compressed (zip) example is refused", async () => {
  const key = await crypto.subtle.importKey("raw", octBytes(RFC7520_5_8.key), "AES-KW", false, [
    "unwrapKey",
  ]);
  await assert.rejects(decryptCompactJWE(RFC7520_5_9_TOKEN, key), {
    code: "ERR_JOSE_UNSUPPORTED_HEADER",
  });
});

Deno.test("RFC 7520 5.3: the PBES2 example is refused before any key derivation", async () => {
  const key = await crypto.subtle.importKey("raw", octBytes(RFC7520_5_8.key), "AES-KW", false, [
    "unwrapKey",
  ]);
  await assert.rejects(decryptCompactJWE(RFC7520_5_3_TOKEN, key), {
    code: "ERR_JOSE_ALG_NOT_ALLOWED",
  });
});

Deno.test("RFC 8037 A.4: Ed25519 signing reproduces the example", async () => {
  const pair = await importPair(RFC8037_A4.key, { name: "Ed25519" }, ["sign"], ["verify"]);
  const token = await signCompactJWS(RFC8037_A4.payload, pair.privateKey, { alg: "EdDSA" });
  assert.equal(token, RFC8037_A4.token);
  const { payload } = await verifyCompactJWS(RFC8037_A4.token, pair.publicKey);
  assert.equal(text.decode(payload), RFC8037_A4.payload);
});

Deno.test("the dir example key also encrypts through the public API", async () => {
  const key = await crypto.subtle.importKey("raw", octBytes(RFC7520_5_6.key), "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
  const token = await encryptCompactJWE(RFC7520_PLAINTEXT, key, { alg: "dir", enc: "A128GCM" });
  const { plaintext } = await decryptCompactJWE(token, key);
  assert.equal(text.decode(plaintext), RFC7520_PLAINTEXT);
});
