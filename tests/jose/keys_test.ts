import assert from "node:assert/strict";
import { createJose, type CryptoSecret, type JWTKey } from "../../jose.ts";
import { headerOf } from "./_tokens.ts";

const SECRET = "k".repeat(32);
const RSA = { modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };

function keyError(make: () => unknown): void {
  assert.throws(make, { name: "JoseError", code: "ERR_JOSE_KEY_INVALID" });
}

Deno.test("a string secret under 32 bytes throws synchronously", () => {
  keyError(() => createJose("s".repeat(31)));
});

Deno.test("secret length is counted in UTF-8 bytes, not characters", () => {
  keyError(() => createJose("é".repeat(15)));
  createJose("é".repeat(16));
});

Deno.test("a byte secret under 32 bytes throws synchronously", () => {
  keyError(() => createJose(new Uint8Array(31)));
  createJose(new Uint8Array(32));
});

Deno.test("the short-secret error says what is expected", () => {
  assert.throws(() => createJose("short"), /at least 32/);
});

Deno.test("a lone CryptoKey in sealed mode throws synchronously, naming { sign, encrypt }", async () => {
  const key = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  assert.throws(() => createJose(key), {
    code: "ERR_JOSE_KEY_INVALID",
    message: /\{ sign, encrypt \}/,
  });
  assert.throws(() => createJose(key, { mode: "sealed" }), { code: "ERR_JOSE_KEY_INVALID" });
});

Deno.test("a lone CryptoKeyPair in sealed mode throws synchronously", async () => {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
  keyError(() => createJose(pair));
});

Deno.test("signed mode refuses a key that cannot sign", async () => {
  const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt"]);
  keyError(() => createJose(key, { mode: "signed" }));
});

Deno.test("encrypted mode refuses a key that cannot encrypt", async () => {
  const key = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  keyError(() => createJose(key, { mode: "encrypted" }));
});

Deno.test("a CryptoSecret with the roles swapped throws", async () => {
  const hmac = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const aes = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt"]);
  keyError(() => createJose({ sign: aes, encrypt: hmac }));
});

Deno.test("values that are no key at all throw", () => {
  for (const value of [42, null, undefined, {}, { sign: 1, encrypt: 2 }, [42], [[SECRET]]]) {
    keyError(() => createJose(value as unknown as JWTKey));
  }
});

Deno.test("weak or unsupported Web Crypto keys throw", async () => {
  const rsa1024 = await crypto.subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      hash: "SHA-256",
      modulusLength: 1024,
      publicExponent: RSA.publicExponent,
    },
    false,
    ["sign", "verify"],
  );
  const oaepSha1 = await crypto.subtle.generateKey(
    { name: "RSA-OAEP", hash: "SHA-1", ...RSA },
    false,
    ["encrypt", "decrypt"],
  );
  const shortHmac = await crypto.subtle.importKey(
    "raw",
    new Uint8Array(16),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const kw192 = await crypto.subtle.generateKey({ name: "AES-KW", length: 192 }, false, [
    "wrapKey",
  ]);
  const x25519 = await crypto.subtle.generateKey({ name: "X25519" }, false, ["deriveBits"]);
  keyError(() => createJose(rsa1024, { mode: "signed" }));
  keyError(() => createJose(shortHmac, { mode: "signed" }));
  keyError(() => createJose(oaepSha1, { mode: "encrypted" }));
  keyError(() => createJose(kw192, { mode: "encrypted" }));
  keyError(() => createJose(x25519 as CryptoKeyPair, { mode: "encrypted" }));
});

Deno.test("invalid options throw TypeError synchronously", () => {
  assert.throws(() => createJose(SECRET, { mode: "both" as "sealed" }), TypeError);
  assert.throws(() => createJose(SECRET, { purpose: "a b" }), TypeError);
  assert.throws(() => createJose(SECRET, { purpose: "" }), TypeError);
  assert.throws(() => createJose(SECRET, { maxAge: -1 }), TypeError);
  assert.throws(() => createJose(SECRET, { clockTolerance: Number.NaN }), TypeError);
});

const signingCases: [string, () => Promise<CryptoKey | CryptoKeyPair>, string][] = [
  [
    "HMAC SHA-256",
    () => crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]),
    "HS256",
  ],
  [
    "HMAC SHA-384",
    () => crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-384" }, false, ["sign", "verify"]),
    "HS384",
  ],
  [
    "HMAC SHA-512",
    () => crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-512" }, false, ["sign", "verify"]),
    "HS512",
  ],
  [
    "RSASSA-PKCS1-v1_5 SHA-384",
    () =>
      crypto.subtle.generateKey({ name: "RSASSA-PKCS1-v1_5", hash: "SHA-384", ...RSA }, false, [
        "sign",
        "verify",
      ]),
    "RS384",
  ],
  [
    "RSA-PSS SHA-512",
    () =>
      crypto.subtle.generateKey({ name: "RSA-PSS", hash: "SHA-512", ...RSA }, false, [
        "sign",
        "verify",
      ]),
    "PS512",
  ],
  [
    "ECDSA P-256",
    () =>
      crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]),
    "ES256",
  ],
  [
    "ECDSA P-384",
    () =>
      crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, false, ["sign", "verify"]),
    "ES384",
  ],
  [
    "ECDSA P-521",
    () =>
      crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-521" }, false, ["sign", "verify"]),
    "ES512",
  ],
  [
    "Ed25519",
    () =>
      crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]) as Promise<
        CryptoKeyPair
      >,
    "EdDSA",
  ],
];

for (const [name, make, alg] of signingCases) {
  Deno.test(`an ${name} key signs with ${alg} and verifies its own tokens`, async () => {
    const jose = createJose(await make(), { mode: "signed" });
    const token = await jose.encodeJWT({ sub: "x" });
    assert.deepEqual(headerOf(token), { alg, kid: headerOf(token).kid, typ: "JWT" });
    assert.equal((await jose.decodeJWT(token)).sub, "x");
  });
}

const encryptionCases: [string, () => Promise<CryptoKey | CryptoKeyPair>, string, string][] = [
  [
    "AES-GCM 128",
    () =>
      crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, false, ["encrypt", "decrypt"]),
    "dir",
    "A128GCM",
  ],
  [
    "AES-GCM 192",
    () =>
      crypto.subtle.generateKey({ name: "AES-GCM", length: 192 }, false, ["encrypt", "decrypt"]),
    "dir",
    "A192GCM",
  ],
  [
    "AES-GCM 256",
    () =>
      crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]),
    "dir",
    "A256GCM",
  ],
  [
    "AES-KW 128",
    () =>
      crypto.subtle.generateKey({ name: "AES-KW", length: 128 }, false, ["wrapKey", "unwrapKey"]),
    "A128KW",
    "A256GCM",
  ],
  [
    "AES-KW 256",
    () =>
      crypto.subtle.generateKey({ name: "AES-KW", length: 256 }, false, ["wrapKey", "unwrapKey"]),
    "A256KW",
    "A256GCM",
  ],
  [
    "RSA-OAEP SHA-256",
    () =>
      crypto.subtle.generateKey({ name: "RSA-OAEP", hash: "SHA-256", ...RSA }, false, [
        "encrypt",
        "decrypt",
      ]),
    "RSA-OAEP-256",
    "A256GCM",
  ],
  [
    "ECDH P-384",
    () => crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-384" }, false, ["deriveBits"]),
    "ECDH-ES+A256KW",
    "A256GCM",
  ],
];

for (const [name, make, alg, enc] of encryptionCases) {
  Deno.test(`an ${name} key encrypts with ${alg} + ${enc} and decrypts its own tokens`, async () => {
    const jose = createJose(await make(), { mode: "encrypted" });
    const token = await jose.encodeJWT({ sub: "y" });
    const header = headerOf(token);
    assert.equal(header.alg, alg);
    assert.equal(header.enc, enc);
    assert.equal(header.typ, "JWT");
    assert.equal((await jose.decodeJWT(token)).sub, "y");
  });
}

Deno.test("a string secret signs with HS256 and encrypts with dir + A256GCM", async () => {
  const token = await createJose(SECRET).encodeJWT({});
  const { kid } = headerOf(token);
  assert.deepEqual(headerOf(token), { alg: "dir", enc: "A256GCM", kid, cty: "JWT", typ: "JWT" });
  const signed = await createJose(SECRET, { mode: "signed" }).encodeJWT({});
  assert.deepEqual(headerOf(signed), { alg: "HS256", kid, typ: "JWT" });
});

Deno.test("a CryptoKeyPair signs with its private key and verifies with its public key", async () => {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, [
    "sign",
    "verify",
  ]);
  const token = await createJose(pair, { mode: "signed" }).encodeJWT({ sub: "p" });
  const verifyOnly = createJose(pair.publicKey, { mode: "signed" });
  assert.equal((await verifyOnly.decodeJWT(token)).sub, "p");
  await assert.rejects(verifyOnly.encodeJWT({}), { code: "ERR_JOSE_KEY_INVALID" });
  const signOnly = createJose(pair.privateKey, { mode: "signed" });
  await assert.rejects(signOnly.decodeJWT(await signOnly.encodeJWT({})), {
    code: "ERR_JOSE_KEY_INVALID",
  });
});

Deno.test("a CryptoSecret works in every mode", async () => {
  const secret: CryptoSecret = {
    sign: await crypto.subtle.generateKey({ name: "Ed25519" }, false, [
      "sign",
      "verify",
    ]) as CryptoKeyPair,
    encrypt: await crypto.subtle.generateKey({ name: "AES-KW", length: 256 }, false, [
      "wrapKey",
      "unwrapKey",
    ]),
  };
  for (const mode of ["sealed", "signed", "encrypted"] as const) {
    const jose = createJose(secret, { mode });
    assert.equal((await jose.decodeJWT(await jose.encodeJWT({ sub: mode }))).sub, mode);
  }
});

Deno.test("a signing-only key has no JWE and an encryption-only key has no JWS", async () => {
  const hmac = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  const aes = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
  await assert.rejects(createJose(hmac, { mode: "signed" }).encryptJWE("x"), {
    code: "ERR_JOSE_KEY_INVALID",
  });
  await assert.rejects(createJose(aes, { mode: "encrypted" }).signJWS({}), {
    code: "ERR_JOSE_KEY_INVALID",
  });
});
