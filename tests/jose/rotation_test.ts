import assert from "node:assert/strict";
import {
  createJose,
  decodeBase64Url,
  encodeBase64Url,
  encryptCompactJWE,
  type Jose,
  type JoseError,
  type JWTKey,
  signCompactJWS,
} from "../../jose.ts";
import { documentedKeys } from "./_keys.ts";
import { countSubtle } from "./_subtle.ts";
import { headerOf, withHeader } from "./_tokens.ts";

const A = "secret-a-that-is-long-enough-for-hkdf-use";
const B = "secret-b-that-is-long-enough-for-hkdf-use";
const MODES = ["sealed", "signed", "encrypted"] as const;
const encoder = new TextEncoder();

/** The refusal of a promise, for checks beside a call count. */
async function refusal(promise: Promise<unknown>): Promise<JoseError> {
  try {
    await promise;
  } catch (error) {
    return error as JoseError;
  }
  throw new Error("expected a refusal");
}

/** Every kid in a token: the outer header's and, for a sealed token, the inner JWS's. */
async function kidsOf(jose: Jose, token: string): Promise<unknown[]> {
  const outer = headerOf(token).kid;
  if (token.split(".").length === 3 || headerOf(token).cty !== "JWT") return [outer];
  return [outer, headerOf(await jose.decryptJWE(token, { cty: "JWT" })).kid];
}

Deno.test("an empty key list throws synchronously, saying a key is needed", () => {
  assert.throws(() => createJose([]), {
    name: "JoseError",
    code: "ERR_JOSE_KEY_INVALID",
    message: /key list is empty; expected at least one key/,
  });
});

Deno.test("an unusable entry of a key list throws, naming its position", () => {
  assert.throws(() => createJose([A, "short"]), {
    code: "ERR_JOSE_KEY_INVALID",
    message: /^Key 1 of the list: The secret is 5 bytes/,
  });
});

for (const mode of MODES) {
  Deno.test(`${mode} rotation A -> [B, A]: tokens made with A still read`, async () => {
    const old = await createJose(A, { mode }).encodeJWT({ sub: "from-a" });
    assert.equal((await createJose([B, A], { mode }).decodeJWT(old)).sub, "from-a");
  });

  Deno.test(`${mode} rotation A -> [B, A]: new tokens are made with B and name it`, async () => {
    const rotated = createJose([B, A], { mode });
    const token = await rotated.encodeJWT({ sub: "new" });
    const kidOfB = headerOf(await createJose(B, { mode }).encodeJWT({})).kid;
    for (const kid of await kidsOf(rotated, token)) assert.equal(kid, kidOfB);
    assert.equal((await createJose(B, { mode }).decodeJWT(token)).sub, "new");
    await assert.rejects(createJose(A, { mode }).decodeJWT(token), {
      code: "ERR_JOSE_KID_UNKNOWN",
    });
  });
}

Deno.test("every header of a sealed token carries the kid: the JWE and the inner JWS", async () => {
  const jose = createJose(A);
  const token = await jose.encodeJWT({});
  const [outer, inner] = await kidsOf(jose, token);
  assert.match(outer as string, /^[A-Za-z0-9_-]{11}$/);
  assert.equal(inner, outer);
});

for (const mode of MODES) {
  Deno.test(`${mode}: reading an A token costs the same Web Crypto calls with [B, A] as with [A]`, async () => {
    const token = await createJose(A, { mode }).encodeJWT({});
    const alone = createJose(A, { mode });
    const rotated = createJose([B, A], { mode });
    await alone.decodeJWT(token);
    await rotated.decodeJWT(await rotated.encodeJWT({}));
    await rotated.decodeJWT(token);
    const withA = await countSubtle(() => alone.decodeJWT(token));
    const withBA = await countSubtle(() => rotated.decodeJWT(token));
    assert.deepEqual(withBA, withA);
    const expected = mode === "sealed" ? { decrypt: 1 } : mode === "signed"
      ? {} // HS256 of a derived key: computed in JavaScript
      : { decrypt: 1 };
    assert.deepEqual(withA, expected);
  });
}

Deno.test("an unknown kid is refused with ERR_JOSE_KID_UNKNOWN and no Web Crypto call", async () => {
  for (const mode of MODES) {
    const jose = createJose([B, A], { mode });
    const token = await jose.encodeJWT({});
    await jose.decodeJWT(token);
    const forged = withHeader(token, { kid: "AAAAAAAAAAA" });
    let error: JoseError | undefined;
    const counts = await countSubtle(async () => error = await refusal(jose.decodeJWT(forged)));
    assert.equal(error?.code, "ERR_JOSE_KID_UNKNOWN", mode);
    assert.deepEqual(counts, {}, mode);
  }
});

Deno.test("an unknown kid is not echoed in the error message", async () => {
  const jose = createJose(A, { mode: "signed" });
  const forged = withHeader(await jose.encodeJWT({}), { kid: "<script>" });
  const error = await refusal(jose.decodeJWT(forged));
  assert.equal(error.code, "ERR_JOSE_KID_UNKNOWN");
  assert.doesNotMatch(error.message, /script/);
});

Deno.test("a kid that is not a string is malformed", async () => {
  const jose = createJose(A, { mode: "signed" });
  for (const kid of [1, null, ["k"], { k: 1 }]) {
    const forged = withHeader(await jose.encodeJWT({}), { kid });
    await assert.rejects(jose.decodeJWT(forged), { code: "ERR_JOSE_INVALID" }, String(kid));
  }
});

Deno.test("a token without kid is read with the first key only", async () => {
  const keys = await documentedKeys(A, "session");
  const token = await signCompactJWS('{"exp":9999999999}', keys.sign, { alg: "HS256", typ: "JWT" });
  assert.ok(await createJose([A, B], { mode: "signed" }).decodeJWT(token));
  const rotated = createJose([B, A], { mode: "signed" });
  await rotated.decodeJWT(await rotated.encodeJWT({}));
  let error: JoseError | undefined;
  const counts = await countSubtle(async () => error = await refusal(rotated.decodeJWT(token)));
  // Refused although A is in the list: only the first key (B) was tried, in JavaScript.
  assert.equal(error?.code, "ERR_JWS_SIGNATURE_INVALID");
  assert.deepEqual(counts, {});
});

Deno.test("a sealed token of 0.1.0 (no kid in either header) reads with the first key", async () => {
  const keys = await documentedKeys(A, "session");
  const inner = await signCompactJWS('{"exp":9999999999,"sub":"old"}', keys.sign, {
    alg: "HS256",
    typ: "JWT",
  });
  const token = await encryptCompactJWE(inner, keys.encrypt, {
    alg: "dir",
    enc: "A256GCM",
    cty: "JWT",
    typ: "JWT",
  });
  assert.equal((await createJose([A, B]).decodeJWT(token)).sub, "old");
});

Deno.test("the same key twice in a list works (the first match wins)", async () => {
  const jose = createJose([A, A]);
  assert.ok(await jose.decodeJWT(await jose.encodeJWT({})));
});

// The kid format.

async function hkdfKid(secret: string, purpose: string, salt?: string): Promise<string> {
  const ikm = encoder.encode(secret);
  const base = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: salt === undefined ? await crypto.subtle.digest("SHA-256", ikm) : encoder.encode(salt),
      info: encoder.encode(`@service-stack/auth ${purpose} kid`),
    },
    base,
    64,
  );
  return encodeBase64Url(new Uint8Array(bits));
}

Deno.test("a secret's kid is 64 bits of HKDF with info '@service-stack/auth {purpose} kid'", async () => {
  const session = await createJose(A, { mode: "signed" }).encodeJWT({});
  assert.equal(headerOf(session).kid, await hkdfKid(A, "session"));
  const csrf = await createJose(A, { mode: "signed", purpose: "csrf", salt: "pepper" }).encodeJWT(
    {},
  );
  assert.equal(headerOf(csrf).kid, await hkdfKid(A, "csrf", "pepper"));
});

Deno.test("a secret's kid is the same across instances and differs per purpose and secret", async () => {
  const kid = async (key: JWTKey, purpose?: string) =>
    headerOf(await createJose(key, { mode: "signed", purpose }).encodeJWT({})).kid;
  assert.equal(await kid(A), await kid(A));
  assert.notEqual(await kid(A), await kid(B));
  assert.notEqual(await kid(A), await kid(A, "csrf"));
});

const LABEL = encoder.encode("@service-stack/auth kid");

Deno.test("an HMAC key's kid is the first 8 bytes of HMAC(key, '@service-stack/auth kid')", async () => {
  const key = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  const token = await createJose(key, { mode: "signed" }).encodeJWT({});
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, LABEL));
  assert.equal(headerOf(token).kid, encodeBase64Url(mac.subarray(0, 8)));
});

Deno.test("an AES-GCM key's kid is the first 8 bytes of the tag of an empty message (zero IV, label as AAD)", async () => {
  const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
  const token = await createJose(key, { mode: "encrypted" }).encodeJWT({});
  const tag = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv: new Uint8Array(12), additionalData: LABEL },
      key,
      new Uint8Array(0),
    ),
  );
  assert.equal(headerOf(token).kid, encodeBase64Url(tag.subarray(0, 8)));
});

Deno.test("an AES-KW key's kid is the first 8 bytes of the label's first 16 bytes wrapped", async () => {
  const key = await crypto.subtle.generateKey({ name: "AES-KW", length: 256 }, false, [
    "wrapKey",
    "unwrapKey",
  ]);
  const token = await createJose(key, { mode: "encrypted" }).encodeJWT({});
  const fixed = await crypto.subtle.importKey("raw", LABEL.subarray(0, 16), "AES-GCM", true, [
    "encrypt",
  ]);
  const wrapped = new Uint8Array(await crypto.subtle.wrapKey("raw", fixed, key, "AES-KW"));
  assert.equal(headerOf(token).kid, encodeBase64Url(wrapped.subarray(0, 8)));
});

Deno.test("a key whose id cannot be read writes no kid, and its tokens read with the first key", async () => {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
  const spki = await crypto.subtle.exportKey("spki", (pair as CryptoKeyPair).publicKey);
  const hidden = await crypto.subtle.importKey("spki", spki, "Ed25519", false, ["verify"]);
  const signer = createJose((pair as CryptoKeyPair).privateKey, { mode: "signed" });
  const token = await signer.encodeJWT({ sub: "x" });
  assert.equal(headerOf(token).kid, undefined);
  assert.equal((await createJose(hidden, { mode: "signed" }).decodeJWT(token)).sub, "x");
});

Deno.test("a decrypt-only AES-GCM key has no kid", async () => {
  const raw = crypto.getRandomValues(new Uint8Array(32));
  const full = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
  const decryptOnly = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["decrypt"]);
  const token = await encryptCompactJWE('{"exp":9999999999}', full, {
    alg: "dir",
    enc: "A256GCM",
    typ: "JWT",
  });
  assert.ok(await createJose(decryptOnly, { mode: "encrypted" }).decodeJWT(token));
});

// Rotation with Web Crypto keys.

const rotations: [string, "signed" | "encrypted" | "sealed", () => Promise<JWTKey>][] = [
  [
    "HMAC keys",
    "signed",
    () => crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]),
  ],
  [
    "Ed25519 pairs",
    "signed",
    () =>
      crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]) as Promise<
        CryptoKeyPair
      >,
  ],
  [
    "ECDSA pairs",
    "signed",
    () =>
      crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]),
  ],
  [
    "AES-GCM keys",
    "encrypted",
    () =>
      crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]),
  ],
  [
    "AES-KW keys",
    "encrypted",
    () =>
      crypto.subtle.generateKey({ name: "AES-KW", length: 256 }, false, ["wrapKey", "unwrapKey"]),
  ],
  [
    "ECDH pairs",
    "encrypted",
    () => crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]),
  ],
  [
    "CryptoSecrets",
    "sealed",
    async () => ({
      sign: await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, [
        "sign",
        "verify",
      ]),
      encrypt: await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
        "encrypt",
        "decrypt",
      ]),
    }),
  ],
];

for (const [name, mode, make] of rotations) {
  Deno.test(`rotation with ${name} (${mode}): old tokens read, new ones name the new key`, async () => {
    const [keyA, keyB] = [await make(), await make()];
    const old = await createJose(keyA, { mode }).encodeJWT({ sub: "a" });
    const rotated = createJose([keyB, keyA], { mode });
    assert.equal((await rotated.decodeJWT(old)).sub, "a");
    const fresh = await rotated.encodeJWT({ sub: "b" });
    assert.notEqual(headerOf(fresh).kid, headerOf(old).kid);
    assert.equal((await createJose(keyB, { mode }).decodeJWT(fresh)).sub, "b");
    await assert.rejects(createJose(keyA, { mode }).decodeJWT(fresh), {
      code: "ERR_JOSE_KID_UNKNOWN",
    });
  });
}

Deno.test("decodeBase64Url of a kid gives 8 bytes", async () => {
  const kid = headerOf(await createJose(A).encodeJWT({})).kid as string;
  assert.equal(decodeBase64Url(kid).length, 8);
});
