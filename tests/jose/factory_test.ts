import assert from "node:assert/strict";
import { countSubtle } from "./_subtle.ts";
import {
  createJose,
  type CryptoSecret,
  decodeBase64Url,
  decryptCompactJWE,
  encodeBase64Url,
  encryptCompactJWE,
  type JoseError,
  signCompactJWS,
} from "../../jose.ts";
import { documentedKeys } from "./_keys.ts";
import { flipBit, headerOf, jsonSegment, textSegment, withHeader, withSegment } from "./_tokens.ts";

const SECRET = "a-test-secret-that-is-long-enough-for-hkdf";
const T0 = 1_700_000_000_000;
const DAY = 24 * 60 * 60;

function clockAt(ms: number) {
  return { clock: () => ms };
}

async function cryptoSecret(): Promise<CryptoSecret> {
  return {
    sign: await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]),
    encrypt: await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
      "encrypt",
      "decrypt",
    ]),
  };
}

for (const mode of ["sealed", "signed", "encrypted"] as const) {
  Deno.test(`${mode} mode: encodeJWT then decodeJWT returns the claims`, async () => {
    const jose = createJose(SECRET, { mode, ...clockAt(T0) });
    const claims = await jose.decodeJWT(await jose.encodeJWT({ sub: "user-1", role: "admin" }));
    assert.equal(claims.sub, "user-1");
    assert.equal(claims.role, "admin");
  });
}

Deno.test("the default mode is sealed: a JWS nested in a JWE with cty JWT", async () => {
  const jose = createJose(SECRET);
  const token = await jose.encodeJWT({});
  assert.equal(token.split(".").length, 5);
  const kid = headerOf(token).kid;
  assert.deepEqual(headerOf(token), { alg: "dir", enc: "A256GCM", kid, cty: "JWT", typ: "JWT" });
  const inner = await jose.decryptJWE(token, { cty: "JWT" });
  assert.deepEqual(headerOf(inner), { alg: "HS256", kid, typ: "JWT" });
});

Deno.test("encodeJWT sets iat and nbf to now, exp to now + 30 days, and a random jti", async () => {
  const jose = createJose(SECRET, clockAt(T0 + 999));
  const claims = await jose.decodeJWT(await jose.encodeJWT({ sub: "s", iat: 1, nbf: 2 }));
  const now = T0 / 1000;
  assert.equal(claims.iat, now);
  assert.equal(claims.nbf, now);
  assert.equal(claims.exp, now + 30 * DAY);
  assert.match(claims.jti!, /^[A-Za-z0-9_-]{22}$/);
  const again = await jose.decodeJWT(await jose.encodeJWT({ sub: "s" }));
  assert.notEqual(again.jti, claims.jti);
});

Deno.test("encodeJWT keeps a given exp and jti, and maxAge sets the default lifetime", async () => {
  const jose = createJose(SECRET, { maxAge: 60, ...clockAt(T0) });
  const now = T0 / 1000;
  assert.equal((await jose.decodeJWT(await jose.encodeJWT({}))).exp, now + 60);
  const kept = await jose.decodeJWT(await jose.encodeJWT({ exp: now + 10, jti: "fixed" }));
  assert.equal(kept.exp, now + 10);
  assert.equal(kept.jti, "fixed");
});

Deno.test("encodeJWT refuses claims of the wrong type", async () => {
  const jose = createJose(SECRET);
  for (const payload of [{ exp: "soon" }, { sub: 1 }, { aud: [1] }, { jti: {} }]) {
    await assert.rejects(jose.encodeJWT(payload as never), { code: "ERR_JWT_CLAIM_INVALID" });
  }
  await assert.rejects(jose.encodeJWT([] as never), { code: "ERR_JWT_CLAIM_INVALID" });
  await assert.rejects(jose.encodeJWT({ big: 1n } as never), { code: "ERR_JWT_CLAIM_INVALID" });
});

Deno.test("a token is accepted up to 5 s after exp and refused from then on", async () => {
  const token = await createJose(SECRET, { maxAge: 100, ...clockAt(T0) }).encodeJWT({});
  await createJose(SECRET, clockAt(T0 + 104_999)).decodeJWT(token);
  await assert.rejects(createJose(SECRET, clockAt(T0 + 105_000)).decodeJWT(token), {
    code: "ERR_JWT_EXPIRED",
  });
});

Deno.test("an expired token is refused in every mode", async () => {
  for (const mode of ["sealed", "signed", "encrypted"] as const) {
    const token = await createJose(SECRET, { mode, maxAge: 10, ...clockAt(T0) }).encodeJWT({});
    await assert.rejects(createJose(SECRET, { mode, ...clockAt(T0 + 60_000) }).decodeJWT(token), {
      code: "ERR_JWT_EXPIRED",
    });
  }
});

Deno.test("a token whose nbf is more than 5 s ahead is not yet valid", async () => {
  const token = await createJose(SECRET, clockAt(T0 + 60_000)).encodeJWT({});
  await assert.rejects(createJose(SECRET, clockAt(T0)).decodeJWT(token), {
    code: "ERR_JWT_NOT_YET_VALID",
  });
  await createJose(SECRET, clockAt(T0 + 55_000)).decodeJWT(token);
});

Deno.test("decode options override the clock and the tolerance", async () => {
  const jose = createJose(SECRET, { maxAge: 10, ...clockAt(T0) });
  const token = await jose.encodeJWT({});
  await assert.rejects(jose.decodeJWT(token, { currentDate: new Date(T0 + 20_000) }), {
    code: "ERR_JWT_EXPIRED",
  });
  await jose.decodeJWT(token, { currentDate: new Date(T0 + 20_000), clockTolerance: 15 });
});

Deno.test("issuer and audience are set on encode and required on decode", async () => {
  const jose = createJose(SECRET, { issuer: "https://a.example", audience: "app" });
  const token = await jose.encodeJWT({ iss: "spoofed", aud: "other" });
  const claims = await jose.decodeJWT(token);
  assert.equal(claims.iss, "https://a.example");
  assert.equal(claims.aud, "app");
  await assert.rejects(jose.decodeJWT(token, { issuer: "https://b.example" }), {
    code: "ERR_JWT_CLAIM_INVALID",
  });
  await assert.rejects(jose.decodeJWT(token, { audience: "api" }), {
    code: "ERR_JWT_CLAIM_INVALID",
  });
  const strict = createJose(SECRET, { issuer: "https://a.example", audience: "app" });
  const plain = await createJose(SECRET).encodeJWT({});
  await assert.rejects(strict.decodeJWT(plain), { code: "ERR_JWT_CLAIM_INVALID" });
});

Deno.test("an audience array passes when it contains the expected audience", async () => {
  const jose = createJose(SECRET, { mode: "signed" });
  const token = await jose.signJWS({ aud: ["api", "app"] });
  assert.deepEqual((await jose.verifyJWS(token, { audience: "app" })).aud, ["api", "app"]);
  await assert.rejects(jose.verifyJWS(token, { audience: "web" }), {
    code: "ERR_JWT_CLAIM_INVALID",
  });
});

Deno.test("signJWS signs the payload as given and verifyJWS accepts it without exp", async () => {
  const jose = createJose(SECRET);
  const token = await jose.signJWS({ nonce: "n" });
  assert.deepEqual(headerOf(token), { alg: "HS256", kid: headerOf(token).kid, typ: "JWT" });
  assert.deepEqual(await jose.verifyJWS(token), { nonce: "n" });
});

Deno.test("verifyJWS checks exp and nbf when present", async () => {
  const jose = createJose(SECRET, clockAt(T0));
  const now = T0 / 1000;
  await assert.rejects(jose.verifyJWS(await jose.signJWS({ exp: now - 60 })), {
    code: "ERR_JWT_EXPIRED",
  });
  await assert.rejects(jose.verifyJWS(await jose.signJWS({ nbf: now + 60 })), {
    code: "ERR_JWT_NOT_YET_VALID",
  });
});

Deno.test("decodeJWT requires exp, so a bare signJWS token is not a session", async () => {
  const jose = createJose(SECRET, { mode: "signed" });
  await assert.rejects(jose.decodeJWT(await jose.signJWS({ sub: "x" })), {
    code: "ERR_JWT_CLAIM_INVALID",
  });
});

Deno.test("verified claims of the wrong type, or not an object, are refused", async () => {
  const secret = await cryptoSecret();
  const jose = createJose(secret, { mode: "signed" });
  const header = { alg: "HS256" as const, typ: "JWT" };
  for (const payload of ['{"exp":"later"}', '{"iss":7}', '{"aud":[1]}', "[1,2]", "null", "3"]) {
    const token = await signCompactJWS(payload, secret.sign as CryptoKey, header);
    await assert.rejects(jose.verifyJWS(token), { code: "ERR_JWT_CLAIM_INVALID" }, payload);
  }
});

Deno.test("a verified payload that is not JSON is malformed", async () => {
  const secret = await cryptoSecret();
  const jose = createJose(secret, { mode: "signed" });
  const token = await signCompactJWS("{", secret.sign as CryptoKey, { alg: "HS256", typ: "JWT" });
  await assert.rejects(jose.verifyJWS(token), { code: "ERR_JOSE_INVALID" });
});

Deno.test("encryptJWE and decryptJWE carry a string, with cty when given", async () => {
  const jose = createJose(SECRET);
  const token = await jose.encryptJWE("state=abc", { cty: "text/plain" });
  assert.equal(headerOf(token).cty, "text/plain");
  assert.equal(await jose.decryptJWE(token, { cty: "text/plain" }), "state=abc");
  assert.equal(await jose.decryptJWE(await jose.encryptJWE("é€")), "é€");
});

Deno.test("encryptJWE writes no typ: its content is text, not a JWT", async () => {
  for (const purpose of ["session", "csrf", "oauth-flow"] as const) {
    for (const mode of ["sealed", "encrypted"] as const) {
      const jose = createJose(SECRET, { purpose, mode });
      const header = headerOf(await jose.encryptJWE("x", { cty: "text/plain" }));
      assert.deepEqual(header, { alg: "dir", enc: "A256GCM", kid: header.kid, cty: "text/plain" });
      assert.equal(headerOf(await jose.encryptJWE("x")).typ, undefined);
    }
  }
});

Deno.test("encryptJWE output never passes decodeJWT as an encrypted-mode token", async () => {
  const jose = createJose(SECRET, { mode: "encrypted" });
  const forged = await jose.encryptJWE(JSON.stringify({ sub: "admin", exp: 4102444800 }));
  await assert.rejects(jose.decodeJWT(forged), { code: "ERR_JOSE_TYP_MISMATCH" });
});

Deno.test("decryptJWE reads a JWE without typ, and one with a typ (older encryptJWE output)", async () => {
  const jose = createJose(SECRET);
  const keys = await documentedKeys(SECRET, "session");
  for (const typ of [undefined, "JWT", "JOSE"]) {
    const header = { alg: "dir" as const, enc: "A256GCM" as const, ...(typ ? { typ } : {}) };
    const token = await encryptCompactJWE("text", keys.encrypt, header);
    assert.equal(await jose.decryptJWE(token), "text");
  }
});

Deno.test("decodeJWT still refuses a token whose typ is missing or of another purpose", async () => {
  const keys = await documentedKeys(SECRET, "session");
  const encrypted = createJose(SECRET, { mode: "encrypted" });
  const claims = JSON.stringify({ sub: "a", exp: 4102444800 });
  const untyped = await encryptCompactJWE(claims, keys.encrypt, { alg: "dir", enc: "A256GCM" });
  await assert.rejects(encrypted.decodeJWT(untyped), { code: "ERR_JOSE_TYP_MISMATCH" });
  const csrf = await encryptCompactJWE(claims, keys.encrypt, {
    alg: "dir",
    enc: "A256GCM",
    typ: "csrf+jwt",
  });
  await assert.rejects(encrypted.decodeJWT(csrf), { code: "ERR_JOSE_TYP_MISMATCH" });
});

Deno.test("decryptJWE refuses a cty other than the one asked for, and a cty when none is asked", async () => {
  const jose = createJose(SECRET);
  await assert.rejects(jose.decryptJWE(await jose.encryptJWE("x", { cty: "a" }), { cty: "b" }), {
    code: "ERR_JOSE_TYP_MISMATCH",
  });
  await assert.rejects(jose.decryptJWE(await jose.encodeJWT({})), {
    code: "ERR_JOSE_TYP_MISMATCH",
  });
});

Deno.test("wrong cty: an encrypted-mode token is refused by a sealed decoder, and the reverse", async () => {
  const sealed = createJose(SECRET);
  const encrypted = createJose(SECRET, { mode: "encrypted" });
  await assert.rejects(sealed.decodeJWT(await encrypted.encodeJWT({})), {
    code: "ERR_JOSE_TYP_MISMATCH",
  });
  await assert.rejects(encrypted.decodeJWT(await sealed.encodeJWT({})), {
    code: "ERR_JOSE_TYP_MISMATCH",
  });
});

Deno.test("wrong typ: a token with another typ is refused even under the right key", async () => {
  const secret = await cryptoSecret();
  const jose = createJose(secret, { mode: "signed" });
  const token = await signCompactJWS('{"exp":9999999999}', secret.sign as CryptoKey, {
    alg: "HS256",
    typ: "at+jwt",
  });
  await assert.rejects(jose.decodeJWT(token), { code: "ERR_JOSE_TYP_MISMATCH" });
});

Deno.test("alg none is refused by a signed-mode decoder", async () => {
  const jose = createJose(SECRET, { mode: "signed" });
  const token = `${jsonSegment({ alg: "none", typ: "JWT" })}.${jsonSegment({ exp: 9e9 })}.`;
  await assert.rejects(jose.decodeJWT(token), { code: "ERR_JOSE_ALG_NOT_ALLOWED" });
});

Deno.test("alg swap is refused by a signed-mode decoder with an RSA pair", async () => {
  const pair = await crypto.subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      hash: "SHA-256",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
    },
    false,
    ["sign", "verify"],
  );
  const jose = createJose(pair, { mode: "signed" });
  const spki = await crypto.subtle.exportKey("spki", pair.publicKey);
  const hmac = await crypto.subtle.importKey(
    "raw",
    spki,
    { name: "HMAC", hash: "SHA-256" },
    false,
    [
      "sign",
    ],
  );
  const token = await signCompactJWS('{"exp":9999999999}', hmac, { alg: "HS256", typ: "JWT" });
  await assert.rejects(jose.decodeJWT(token), { code: "ERR_JOSE_ALG_NOT_ALLOWED" });
});

Deno.test("a sealed token with crit, zip or PBES2 in the outer header is refused", async () => {
  const jose = createJose(SECRET);
  const token = await jose.encodeJWT({});
  await assert.rejects(jose.decodeJWT(withHeader(token, { crit: ["x"], x: 1 })), {
    code: "ERR_JOSE_UNSUPPORTED_HEADER",
  });
  await assert.rejects(jose.decodeJWT(withHeader(token, { zip: "DEF" })), {
    code: "ERR_JOSE_UNSUPPORTED_HEADER",
  });
  await assert.rejects(
    jose.decodeJWT(withHeader(token, { alg: "PBES2-HS256+A128KW", p2c: 1e9, p2s: "AAAA" })),
    { code: "ERR_JOSE_ALG_NOT_ALLOWED" },
  );
});

Deno.test("tampering with any part of a sealed token is detected", async () => {
  const jose = createJose(SECRET);
  const token = await jose.encodeJWT({ sub: "user-1" });
  const tampered = [
    withHeader(token, { extra: "x" }),
    flipBit(token, 2),
    flipBit(token, 3),
    flipBit(token, 3, -1),
    flipBit(token, 4),
  ];
  for (const bad of tampered) {
    await assert.rejects(jose.decodeJWT(bad), { code: "ERR_JWE_DECRYPTION_FAILED" });
  }
});

Deno.test("tampering with a signed token's header, payload or signature is detected", async () => {
  const jose = createJose(SECRET, { mode: "signed" });
  const token = await jose.encodeJWT({ sub: "user-1" });
  const tampered = [
    withHeader(token, { extra: "x" }),
    withSegment(token, 1, jsonSegment({ sub: "admin", exp: 9e9 })),
    flipBit(token, 2),
  ];
  for (const bad of tampered) {
    await assert.rejects(jose.decodeJWT(bad), { code: "ERR_JWS_SIGNATURE_INVALID" });
  }
});

Deno.test("a token from another secret is refused by its kid, before any crypto", async () => {
  const other = "another-secret-that-is-long-enough-for-hkdf";
  for (const mode of ["sealed", "signed", "encrypted"] as const) {
    const token = await createJose(other, { mode }).encodeJWT({});
    const jose = createJose(SECRET, { mode });
    await jose.decodeJWT(await jose.encodeJWT({}));
    let refusal: unknown;
    const counts = await countSubtle(() => jose.decodeJWT(token).catch((error) => refusal = error));
    assert.equal((refusal as JoseError).code, "ERR_JOSE_KID_UNKNOWN", mode);
    assert.deepEqual(counts, {}, mode);
  }
});

Deno.test("a token without kid made with another key fails the crypto check", async () => {
  const keys = await documentedKeys("another-secret-that-is-long-enough-for-hkdf", "session");
  const payload = '{"exp":9999999999}';
  const signed = await signCompactJWS(payload, keys.sign, { alg: "HS256", typ: "JWT" });
  await assert.rejects(createJose(SECRET, { mode: "signed" }).decodeJWT(signed), {
    code: "ERR_JWS_SIGNATURE_INVALID",
  });
  const header = { alg: "dir" as const, enc: "A256GCM" as const, typ: "JWT" };
  const encrypted = await encryptCompactJWE(payload, keys.encrypt, header);
  await assert.rejects(createJose(SECRET, { mode: "encrypted" }).decodeJWT(encrypted), {
    code: "ERR_JWE_DECRYPTION_FAILED",
  });
  const sealed = await encryptCompactJWE(signed, keys.encrypt, { ...header, cty: "JWT" });
  await assert.rejects(createJose(SECRET).decodeJWT(sealed), {
    code: "ERR_JWE_DECRYPTION_FAILED",
  });
});

Deno.test("a salt changes the keys: a token made without it is refused", async () => {
  const token = await createJose(SECRET).encodeJWT({});
  await assert.rejects(createJose(SECRET, { salt: "pepper" }).decodeJWT(token), {
    code: "ERR_JOSE_KID_UNKNOWN",
  });
  const salted = createJose(SECRET, { salt: new TextEncoder().encode("pepper") });
  assert.ok(await createJose(SECRET, { salt: "pepper" }).decodeJWT(await salted.encodeJWT({})));
});

Deno.test("malformed tokens are refused with ERR_JOSE_INVALID", async () => {
  const jose = createJose(SECRET);
  const token = await jose.encodeJWT({});
  const malformed = [
    "",
    "a.b.c",
    token.split(".").slice(0, 4).join("."),
    `${token}.x`,
    withSegment(token, 3, "not*base64"),
    withSegment(token, 0, textSegment("{not json")),
    withSegment(token, 0, textSegment("[]")),
    withSegment(token, 0, textSegment('"str"')),
    42 as unknown as string,
  ];
  for (const bad of malformed) {
    await assert.rejects(jose.decodeJWT(bad), { code: "ERR_JOSE_INVALID" });
  }
});

Deno.test("a sealed token whose inner content is not a compact JWS is malformed", async () => {
  const jose = createJose(SECRET);
  for (const inner of ["not a jws", "a.b", "a.b.c.d"]) {
    const token = await jose.encryptJWE(inner, { cty: "JWT" });
    await assert.rejects(jose.decodeJWT(token), { code: "ERR_JOSE_INVALID" }, inner);
  }
});

Deno.test("a sealed token whose inner JWS has no valid signature is refused", async () => {
  const jose = createJose(SECRET);
  const inner = `${jsonSegment({ alg: "HS256", typ: "JWT" })}.${jsonSegment({ exp: 9e9 })}.`;
  await assert.rejects(jose.decodeJWT(await jose.encryptJWE(inner, { cty: "JWT" })), {
    code: "ERR_JWS_SIGNATURE_INVALID",
  });
});

Deno.test("a token over 16 KiB is refused before parsing", async () => {
  const jose = createJose(SECRET);
  await assert.rejects(jose.decodeJWT("x".repeat(16 * 1024 + 1)), { code: "ERR_JOSE_TOO_LARGE" });
  const keys = await documentedKeys(SECRET, "session");
  const big = await encryptCompactJWE(new Uint8Array(13_000), keys.encrypt, {
    alg: "dir",
    enc: "A256GCM",
    cty: "JWT",
    typ: "JWT",
  });
  await assert.rejects(jose.decodeJWT(big), { code: "ERR_JOSE_TOO_LARGE" });
});

Deno.test("encoding refuses to produce a token over 16 KiB", async () => {
  const jose = createJose(SECRET);
  await assert.rejects(jose.encodeJWT({ blob: "b".repeat(13_000) }), {
    code: "ERR_JOSE_TOO_LARGE",
  });
  await assert.rejects(jose.signJWS({ blob: "b".repeat(13_000) }), { code: "ERR_JOSE_TOO_LARGE" });
  await assert.rejects(jose.encryptJWE("b".repeat(13_000)), { code: "ERR_JOSE_TOO_LARGE" });
});

Deno.test("an invalid current time or tolerance fails closed", async () => {
  const token = await createJose(SECRET).encodeJWT({});
  await assert.rejects(
    createJose(SECRET).decodeJWT(token, { currentDate: new Date(NaN) }),
    TypeError,
  );
  await assert.rejects(createJose(SECRET, { clock: () => NaN }).decodeJWT(token), TypeError);
  await assert.rejects(createJose(SECRET).decodeJWT(token, { clockTolerance: -1 }), TypeError);
});

Deno.test("an empty cty is kept apart from no cty", async () => {
  const jose = createJose(SECRET);
  assert.equal(headerOf(await jose.encryptJWE("x", { cty: "" })).cty, "");
  assert.equal(headerOf(await jose.encryptJWE("x")).cty, undefined);
});

Deno.test("purpose: a csrf token from the same secret is refused as a session (sealed and signed)", async () => {
  for (const mode of ["sealed", "signed"] as const) {
    const csrf = createJose(SECRET, { purpose: "csrf", mode });
    const session = createJose(SECRET, { purpose: "session", mode });
    const token = await csrf.encodeJWT({ nonce: "n" });
    assert.equal(headerOf(token).typ, "csrf+jwt");
    // The kid of a secret is per purpose too, so the lookup already refuses it.
    await assert.rejects(session.decodeJWT(token), { code: "ERR_JOSE_KID_UNKNOWN" });
    assert.equal((await csrf.decodeJWT(token)).nonce, "n");
  }
});

Deno.test("purpose: a csrf token re-labelled with the session kid is still refused", async () => {
  const csrf = createJose(SECRET, { purpose: "csrf", mode: "signed" });
  const session = createJose(SECRET, { mode: "signed" });
  const sessionKid = headerOf(await session.encodeJWT({})).kid;
  const token = withHeader(await csrf.encodeJWT({}), { kid: sessionKid, typ: "JWT" });
  await assert.rejects(session.decodeJWT(token), { code: "ERR_JWS_SIGNATURE_INVALID" });
});

Deno.test("purpose: keys derived for csrf do not open session tokens even with the session typ", async () => {
  const csrfKeys = await documentedKeys(SECRET, "csrf");
  const forged = await signCompactJWS('{"exp":9999999999}', csrfKeys.sign, {
    alg: "HS256",
    typ: "JWT",
  });
  const session = createJose(SECRET, { mode: "signed" });
  await assert.rejects(session.decodeJWT(forged), { code: "ERR_JWS_SIGNATURE_INVALID" });
});

Deno.test("purpose: with one shared CryptoSecret, typ keeps csrf tokens out of sessions", async () => {
  const secret = await cryptoSecret();
  const csrf = createJose(secret, { purpose: "csrf" });
  const session = createJose(secret);
  await assert.rejects(session.decodeJWT(await csrf.encodeJWT({})), {
    code: "ERR_JOSE_TYP_MISMATCH",
  });
  const signedCsrf = createJose(secret, { purpose: "csrf", mode: "signed" });
  const signedSession = createJose(secret, { mode: "signed" });
  await assert.rejects(signedSession.decodeJWT(await signedCsrf.encodeJWT({})), {
    code: "ERR_JOSE_TYP_MISMATCH",
  });
});

Deno.test("purpose: an inner csrf JWS wrapped in a session JWE is refused (typ checked on both headers)", async () => {
  const secret = await cryptoSecret();
  const csrf = createJose(secret, { purpose: "csrf" });
  const session = createJose(secret);
  const inner = await csrf.signJWS({ exp: 9_999_999_999 });
  const token = await session.encryptJWE(inner, { cty: "JWT" });
  await assert.rejects(session.decodeJWT(token), { code: "ERR_JOSE_TYP_MISMATCH" });
});

Deno.test("two instances with different secrets never share keys", async () => {
  const a = createJose("a".repeat(40));
  const b = createJose("b".repeat(40));
  const [ta, tb] = await Promise.all([a.encodeJWT({ who: "a" }), b.encodeJWT({ who: "b" })]);
  assert.equal((await a.decodeJWT(ta)).who, "a");
  assert.equal((await b.decodeJWT(tb)).who, "b");
  await assert.rejects(a.decodeJWT(tb), { code: "ERR_JOSE_KID_UNKNOWN" });
});

Deno.test("sealed encodeJWT makes 1 Web Crypto call once warm: the inner HS256 of a derived key is computed in JavaScript", async () => {
  const jose = createJose(SECRET);
  await jose.decodeJWT(await jose.encodeJWT({}));
  assert.deepEqual(await countSubtle(() => jose.encodeJWT({ sub: "x" })), { encrypt: 1 });
  // A signed token of a derived key: no Web Crypto call either way.
  const signed = createJose(SECRET, { mode: "signed" });
  const token = await signed.encodeJWT({ sub: "x" });
  assert.deepEqual(await countSubtle(() => signed.encodeJWT({ sub: "x" })), {});
  assert.deepEqual(await countSubtle(() => signed.decodeJWT(token)), {});
});

Deno.test("an application's own HMAC key still signs and verifies through Web Crypto", async () => {
  const keys = await separateKeys();
  const jose = createJose(keys, { mode: "signed" });
  const token = await jose.encodeJWT({ sub: "x" });
  assert.deepEqual(await countSubtle(() => jose.encodeJWT({ sub: "x" })), { sign: 1 });
  assert.deepEqual(await countSubtle(() => jose.decodeJWT(token)), { verify: 1 });
});

Deno.test("sealed decodeJWT with a secret makes 1 Web Crypto call once warm: AES-GCM authenticates the inner JWS", async () => {
  const jose = createJose(SECRET);
  const token = await jose.encodeJWT({ sub: "x" });
  await jose.decodeJWT(token);
  assert.deepEqual(await countSubtle(() => jose.decodeJWT(token)), { decrypt: 1 });
});

Deno.test("sealed decodeJWT with separate { sign, encrypt } keys verifies the inner JWS too", async () => {
  const jose = createJose(await separateKeys());
  const token = await jose.encodeJWT({ sub: "x" });
  await jose.decodeJWT(token);
  assert.deepEqual(await countSubtle(() => jose.decodeJWT(token)), { decrypt: 1, verify: 1 });
});

Deno.test("sealed with separate keys: a well-encrypted token whose inner signature is forged is refused", async () => {
  const keys = await separateKeys();
  const jose = createJose(keys);
  const token = await jose.encodeJWT({ sub: "ada" });
  const { plaintext, header } = await decryptCompactJWE(token, keys.encrypt as CryptoKey);
  const [head, payload] = new TextDecoder().decode(plaintext).split(".");
  const forgedPayload = encodeBase64Url(new TextEncoder().encode(JSON.stringify({
    ...JSON.parse(new TextDecoder().decode(decodeBase64Url(payload))),
    sub: "eve",
  })));
  const forged = await encryptCompactJWE(
    `${head}.${forgedPayload}.${encodeBase64Url(new Uint8Array(32))}`,
    keys.encrypt as CryptoKey,
    header,
  );
  await assert.rejects(jose.decodeJWT(forged));
});

async function separateKeys() {
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

Deno.test("keys are derived once, lazily, even under concurrent first calls", async () => {
  let jose: ReturnType<typeof createJose> | undefined;
  const creation = await countSubtle(() => Promise.resolve(jose = createJose(SECRET)));
  assert.deepEqual(creation, {});
  const counts = await countSubtle(async () => {
    const tokens = await Promise.all(Array.from({ length: 5 }, () => jose!.encodeJWT({})));
    for (const token of tokens) await jose!.decodeJWT(token);
  });
  // HKDF base, the kid, the encryption key, the signing key's bits (imported once, used in JS).
  assert.deepEqual(counts, {
    importKey: 2,
    digest: 1,
    deriveKey: 1,
    deriveBits: 2,
    encrypt: 5,
    decrypt: 5,
  });
});

Deno.test("a leading byte-order mark is data, not dropped", async () => {
  const jose = createJose(SECRET);
  assert.equal(await jose.decryptJWE(await jose.encryptJWE("\uFEFFtext")), "\uFEFFtext");
});

Deno.test("a sealed token whose inner JWS has non-ASCII bytes or a BOM is malformed", async () => {
  const jose = createJose(SECRET);
  const inner = await jose.signJWS({ exp: 9_999_999_999 });
  for (const bad of [`\uFEFF${inner}`, `${inner.slice(0, 10)}\u00e9${inner.slice(11)}`]) {
    await assert.rejects(jose.decodeJWT(await jose.encryptJWE(bad, { cty: "JWT" })), {
      code: "ERR_JOSE_INVALID",
    });
  }
});
