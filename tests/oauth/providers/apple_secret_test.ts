// Apple's client secret: an ES256 JWT verified here with npm:jose as an
// oracle; made lazily, one signature per period, shared by concurrent callers.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only oracle; deno.json has no import map.
import * as jose from "npm:jose@6";
import { appleClientSecret } from "../../../src/oauth/providers/apple.ts";
import { resolveProviders } from "../../../src/oauth/providers/mod.ts";
import { exchangeCode } from "../../../src/oauth/token.ts";
import { envOf, fakeFetch, json } from "./_helpers.ts";

async function p8(): Promise<{ pem: string; publicKey: CryptoKey }> {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ]);
  const der = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  const base64 = btoa(String.fromCharCode(...der)).replace(/.{1,64}/g, "$&\n");
  return {
    pem: `-----BEGIN PRIVATE KEY-----\n${base64}-----END PRIVATE KEY-----\n`,
    publicKey: pair.publicKey,
  };
}

const KEY = await p8();
const OPTIONS = { teamId: "ABCDE12345", keyId: "XYZ9876543", clientId: "com.example.web" };
const T0 = Date.UTC(2026, 10, 23, 12, 0, 0);

Deno.test("the Apple client secret is an ES256 JWT with Apple's header and claims", async () => {
  const secret = appleClientSecret({ ...OPTIONS, privateKey: KEY.pem, now: () => T0 });
  const jwt = await secret();
  const { payload, protectedHeader } = await jose.jwtVerify(jwt, KEY.publicKey, {
    algorithms: ["ES256"],
    issuer: "ABCDE12345",
    audience: "https://appleid.apple.com",
    subject: "com.example.web",
    currentDate: new Date(T0),
  });
  assert.equal(protectedHeader.alg, "ES256");
  assert.equal(protectedHeader.kid, "XYZ9876543");
  assert.equal(payload.iat, T0 / 1000);
  assert.equal(payload.exp, T0 / 1000 + 3600);
});

Deno.test("the Apple client secret fails verification with another key", async () => {
  const other = await p8();
  const jwt = await appleClientSecret({ ...OPTIONS, privateKey: KEY.pem, now: () => T0 })();
  await assert.rejects(() => jose.jwtVerify(jwt, other.publicKey, { currentDate: new Date(T0) }));
});

Deno.test("the Apple client secret is reused within its period: one signature", async () => {
  let now = T0;
  const secret = appleClientSecret({ ...OPTIONS, privateKey: KEY.pem, now: () => now });
  const first = await secret();
  now += 50 * 60 * 1000;
  assert.equal(await secret(), first);
});

Deno.test("the Apple client secret is renewed five minutes before it expires", async () => {
  let now = T0;
  const secret = appleClientSecret({ ...OPTIONS, privateKey: KEY.pem, now: () => now });
  const first = await secret();
  now += 55 * 60 * 1000;
  const second = await secret();
  assert.notEqual(second, first);
  assert.equal(jose.decodeJwt(second).iat, (T0 + 55 * 60 * 1000) / 1000);
});

Deno.test("concurrent callers of the Apple client secret share one signature", async () => {
  const original = crypto.subtle.sign;
  let signatures = 0;
  crypto.subtle.sign = function (...args: Parameters<SubtleCrypto["sign"]>) {
    signatures++;
    return original.apply(crypto.subtle, args);
  } as SubtleCrypto["sign"];
  try {
    const secret = appleClientSecret({ ...OPTIONS, privateKey: KEY.pem, now: () => T0 });
    const results = await Promise.all([secret(), secret(), secret(), secret()]);
    assert.equal(new Set(results).size, 1);
    assert.equal(signatures, 1);
  } finally {
    crypto.subtle.sign = original;
  }
});

Deno.test("a lifetime above Apple's 6-month cap is refused", () => {
  assert.throws(
    () => appleClientSecret({ ...OPTIONS, privateKey: KEY.pem, lifetime: 15_777_001 }),
    /lifetime/,
  );
});

Deno.test("a custom lifetime sets exp", async () => {
  const jwt = await appleClientSecret({
    ...OPTIONS,
    privateKey: KEY.pem,
    lifetime: 86_400,
    now: () => T0,
  })();
  assert.equal(jose.decodeJwt(jwt).exp, T0 / 1000 + 86_400);
});

Deno.test("a .p8 key with literal \\n sequences (as in env files) is accepted", async () => {
  const escaped = KEY.pem.replace(/\n/g, "\\n");
  const jwt = await appleClientSecret({ ...OPTIONS, privateKey: escaped, now: () => T0 })();
  await jose.jwtVerify(jwt, KEY.publicKey, { currentDate: new Date(T0) });
});

Deno.test("wrong Apple key material is refused synchronously with a TypeError", async () => {
  const rsa = await crypto.subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-256",
    },
    true,
    ["sign"],
  );
  const rsaDer = new Uint8Array(await crypto.subtle.exportKey("pkcs8", rsa.privateKey));
  const rsaPem = `-----BEGIN PRIVATE KEY-----\n${
    btoa(String.fromCharCode(...rsaDer))
  }\n-----END PRIVATE KEY-----`;
  const p384 = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, true, [
    "sign",
  ]);
  const p384Der = new Uint8Array(await crypto.subtle.exportKey("pkcs8", p384.privateKey));
  const p384Pem = `-----BEGIN PRIVATE KEY-----\n${
    btoa(String.fromCharCode(...p384Der))
  }\n-----END PRIVATE KEY-----`;
  for (
    const privateKey of [
      "",
      "not a key",
      KEY.pem.replace("PRIVATE KEY", "EC PRIVATE KEY"),
      "-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----",
      rsaPem,
      p384Pem,
    ]
  ) {
    assert.throws(
      () => appleClientSecret({ ...OPTIONS, privateKey }),
      (error: unknown) => error instanceof TypeError && /privateKey/.test(error.message),
      privateKey.slice(0, 30),
    );
  }
});

Deno.test("a malformed Team ID or Key ID is refused", () => {
  assert.throws(
    () => appleClientSecret({ ...OPTIONS, teamId: "abc", privateKey: KEY.pem }),
    /teamId/,
  );
  assert.throws(
    () => appleClientSecret({ ...OPTIONS, keyId: "XYZ987654", privateKey: KEY.pem }),
    /keyId/,
  );
});

Deno.test("the apple entry builds its secret from teamId, keyId and privateKey", async () => {
  const provider = resolveProviders([{
    id: "apple",
    clientId: "com.example.web",
    teamId: "ABCDE12345",
    keyId: "XYZ9876543",
    privateKey: KEY.pem,
  }], envOf({})).get("apple")!;
  assert.equal(typeof provider.clientSecret, "function");
  const jwt = await (provider.clientSecret as () => Promise<string>)();
  const { payload } = await jose.jwtVerify(jwt, KEY.publicKey);
  assert.equal(payload.sub, "com.example.web");
});

Deno.test("apple reads APPLE_TEAM_ID, APPLE_KEY_ID and APPLE_PRIVATE_KEY from env", async () => {
  const provider = resolveProviders(
    ["apple"],
    envOf({
      APPLE_CLIENT_ID: "com.example.web",
      AUTH_APPLE_TEAM_ID: "ABCDE12345",
      APPLE_KEY_ID: "XYZ9876543",
      APPLE_PRIVATE_KEY: KEY.pem.replace(/\n/g, "\\n"),
    }),
  ).get("apple")!;
  const jwt = await (provider.clientSecret as () => Promise<string>)();
  const { protectedHeader, payload } = await jose.jwtVerify(jwt, KEY.publicKey);
  assert.equal(protectedHeader.kid, "XYZ9876543");
  assert.equal(payload.iss, "ABCDE12345");
});

Deno.test("apple with only some of its key options names the missing ones", () => {
  assert.throws(
    () => resolveProviders([{ id: "apple", clientId: "c", teamId: "ABCDE12345" }], envOf({})),
    (error: unknown) =>
      error instanceof TypeError && /"apple" needs keyId, privateKey/.test(error.message),
  );
});

Deno.test("apple with a ready-made clientSecret needs no key options", () => {
  const provider = resolveProviders(
    [{ id: "apple", clientId: "c", clientSecret: "eyJ.premade.jwt" }],
    envOf({}),
  ).get("apple")!;
  assert.equal(provider.clientSecret, "eyJ.premade.jwt");
});

Deno.test("apple without any secret source names the ways to give one", () => {
  assert.throws(
    () => resolveProviders([{ id: "apple", clientId: "c" }], envOf({})),
    /APPLE_CLIENT_SECRET/,
  );
});

Deno.test("exchangeCode awaits a function secret and posts the JWT as client_secret", async () => {
  const provider = resolveProviders([{
    id: "apple",
    clientId: "com.example.web",
    teamId: "ABCDE12345",
    keyId: "XYZ9876543",
    privateKey: KEY.pem,
  }], envOf({})).get("apple")!;
  const { fetch, calls } = fakeFetch({
    "https://appleid.apple.com/auth/token": () =>
      json({ access_token: "a", token_type: "Bearer", expires_in: 3600, id_token: "x.y.z" }),
  });
  const tokens = await exchangeCode(fetch, provider, {
    code: "c",
    redirectURI: "https://app.example/auth/callback/apple",
    codeVerifier: "v".repeat(43),
  });
  assert.equal(tokens.id_token, "x.y.z");
  const body = new URLSearchParams(calls[0].body);
  assert.equal(body.get("client_id"), "com.example.web");
  assert.equal(calls[0].authorization, null);
  const { payload } = await jose.jwtVerify(body.get("client_secret")!, KEY.publicKey);
  assert.equal(payload.aud, "https://appleid.apple.com");
});

Deno.test("a client secret function that fails fails the exchange closed, without calling the provider", async () => {
  const provider = resolveProviders([{
    id: "custom",
    name: "Custom",
    authorizeURL: "https://id.example/authorize",
    accessToken: "https://id.example/token",
    userInfo: "https://id.example/me",
    scope: "",
    responseType: "code",
    clientId: "c",
    clientSecret: () => Promise.reject(new Error("key store down")),
  }], envOf({})).get("custom")!;
  const { fetch, calls } = fakeFetch({});
  await assert.rejects(
    () =>
      exchangeCode(fetch, provider, { code: "c", redirectURI: "https://a/cb", codeVerifier: "v" }),
    (error: unknown) => error instanceof Error && error.name === "AuthError",
  );
  assert.equal(calls.length, 0);
});
