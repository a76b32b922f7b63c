// API keys: the routes, api.verifyApiKey and the rules DECISIONS fixes (CRC-32 before any
// store call, keyed hashes only, one store read, touch at most once a minute).
import assert from "node:assert/strict";
import { type AuthConfig, AuthError, createAuth, memoryStore } from "../../mod.ts";
import type { ApiKeyStore, StoredApiKey } from "../../mod.ts";
import { ADA, Browser, Clock, makeAuth, SECRET } from "../server/_helpers.ts";
import { GRACE, passwordSignIn } from "./_helpers.ts";

const KEY = /^sk_([0-9A-Za-z]{16})_([0-9A-Za-z]{43})([0-9A-Za-z]{6})$/;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A store that counts every call by method and keeps what was saved. */
function countingStore(inner: ApiKeyStore = memoryStore()) {
  const calls: Record<string, number> = {};
  const saved: StoredApiKey[] = [];
  const count = (method: string) => calls[method] = (calls[method] ?? 0) + 1;
  const store: ApiKeyStore = {
    saveApiKey: (
      apiKey,
    ) => (count("saveApiKey"), saved.push(structuredClone(apiKey)), inner.saveApiKey(apiKey)),
    getApiKey: (id) => (count("getApiKey"), inner.getApiKey(id)),
    listApiKeys: (sub) => (count("listApiKeys"), inner.listApiKeys(sub)),
    deleteApiKey: (id) => (count("deleteApiKey"), inner.deleteApiKey(id)),
    touchApiKey: (id, at) => (count("touchApiKey"), inner.touchApiKey(id, at)),
  };
  const total = () => Object.values(calls).reduce((a, b) => a + b, 0);
  return { store, calls, saved, total };
}

function keyAuth(config: Partial<AuthConfig> = {}) {
  const clock = new Clock(Date.now());
  const inner = memoryStore({ clock: clock.fn });
  lastStore = inner;
  const counted = countingStore(inner);
  const auth = makeAuth({
    clock: clock.fn,
    credentials: {
      authorize: ({ username, password }) =>
        password === "correct horse" ? (username === "grace" ? GRACE : ADA) : null,
    },
    apiKeys: { store: counted.store },
    ...config,
  } as Partial<AuthConfig>);
  return { auth, clock, ...counted };
}

function bearer(key: string): Request {
  return new Request("http://localhost:8000/api/things", {
    headers: { Authorization: `Bearer ${key}` },
  });
}

async function create(browser: Browser, body: unknown): Promise<Response> {
  const token = await browser.csrf();
  return await browser.fetch("POST", "/auth/apiKeys", {
    json: body,
    headers: { "X-CSRF-Token": token },
  });
}

async function signedIn(auth: ReturnType<typeof keyAuth>["auth"], username = "ada") {
  const browser = new Browser(auth.handlers.ALL);
  await passwordSignIn(browser, username);
  return browser;
}

Deno.test("POST /apiKeys answers 201 with the key once and its record; the key verifies", async () => {
  const { auth } = keyAuth();
  const browser = await signedIn(auth);
  const response = await create(browser, { name: "CI", scopes: ["deploy", "read"] });
  assert.equal(response.status, 201);
  const { key, apiKey } = await response.json();
  const match = KEY.exec(key);
  assert.ok(match, key);
  assert.equal(apiKey.id, match[1]);
  assert.deepEqual(Object.keys(apiKey).sort(), [
    "createdAt",
    "expiresAt",
    "id",
    "lastUsedAt",
    "name",
    "scopes",
  ]);
  assert.equal(apiKey.expiresAt, null);
  assert.equal(apiKey.lastUsedAt, null);
  assert.equal(new Date(apiKey.createdAt).toISOString(), apiKey.createdAt);
  assert.deepEqual(await auth.api.verifyApiKey(bearer(key)), {
    sub: ADA.sub,
    keyId: apiKey.id,
    scopes: ["deploy", "read"],
  });
});

Deno.test("two keys never share an id or a secret", async () => {
  const { auth } = keyAuth();
  const keys = await Promise.all(
    Array.from({ length: 50 }, () => auth.api.createApiKey(ADA.sub, { name: "k" })),
  );
  assert.equal(new Set(keys.map(({ apiKey }) => apiKey.id)).size, 50);
  assert.equal(new Set(keys.map(({ key }) => KEY.exec(key)![2])).size, 50);
});

Deno.test("a configured prefix starts every key; a bad prefix is a TypeError", async () => {
  const { auth } = keyAuth({ apiKeys: { store: memoryStore(), prefix: "acme" } });
  const { key } = await auth.api.createApiKey(ADA.sub, { name: "x" });
  assert.match(key, /^acme_[0-9A-Za-z]{16}_[0-9A-Za-z]{49}$/);
  assert.ok(await auth.api.verifyApiKey(bearer(key)));
  for (const prefix of ["a", "toolongpfx", "Sk", "s_k", "s1"]) {
    assert.throws(() => keyAuth({ apiKeys: { store: memoryStore(), prefix } }), TypeError);
  }
});

Deno.test("a one-character change anywhere in a key is refused without a store call", async () => {
  const { auth, calls, total } = keyAuth();
  const { key } = await auth.api.createApiKey(ADA.sub, { name: "x" });
  const before = total();
  const variants: string[] = [];
  for (let i = 0; i < key.length; i++) {
    const char = key[i];
    const other = char === "_" ? "a" : BASE62[(BASE62.indexOf(char) + 1 + i) % 62] ?? "b";
    variants.push(key.slice(0, i) + (other === char ? "Z" : other) + key.slice(i + 1));
    variants.push(key.slice(0, i) + key.slice(i + 1)); // removed
    variants.push(key.slice(0, i) + "A" + key.slice(i)); // added
  }
  variants.push(key + "0", key.toUpperCase(), ` ${key}`.trim().replace("sk_", "sK_"));
  for (const variant of variants) {
    if (variant === key) continue;
    assert.equal(await auth.api.verifyApiKey(bearer(variant)), null, variant);
  }
  assert.equal(total(), before, JSON.stringify(calls));
});

Deno.test("a missing or malformed Authorization header resolves null without a store call", async () => {
  const { auth, total } = keyAuth();
  const { key } = await auth.api.createApiKey(ADA.sub, { name: "x" });
  const before = total();
  for (
    const value of [
      null,
      "",
      "Bearer",
      `Basic ${key}`,
      `Bearer  ${key}`,
      `Bearer ${key} x`,
      "Bearer sk_x",
    ]
  ) {
    const headers: Record<string, string> = value === null ? {} : { Authorization: value };
    assert.equal(await auth.api.verifyApiKey(new Request("http://localhost/", { headers })), null);
  }
  assert.equal(total(), before);
});

Deno.test("verifyApiKey costs one store read (and the touch, at most once a minute)", async () => {
  const { auth, calls, clock } = keyAuth();
  const { key } = await auth.api.createApiKey(ADA.sub, { name: "x" });
  assert.ok(await auth.api.verifyApiKey(bearer(key)));
  assert.equal(calls.getApiKey, 1);
  assert.equal(calls.listApiKeys, undefined);
  for (let i = 0; i < 5; i++) assert.ok(await auth.api.verifyApiKey(bearer(key)));
  assert.equal(calls.getApiKey, 6, "one read per verification");
  assert.equal(calls.touchApiKey, 1, "touched once in the minute");
  clock.advance(61);
  assert.ok(await auth.api.verifyApiKey(bearer(key)));
  assert.equal(calls.touchApiKey, 2);
  const [listed] = await auth.api.listApiKeys(ADA.sub);
  assert.equal(listed.lastUsedAt, new Date(Math.floor(clock.now / 1000) * 1000).toISOString());
});

Deno.test("the store keeps a keyed hash: never the key, its SHA-256, or any part of its secret", async () => {
  const { auth, saved } = keyAuth();
  const { key } = await auth.api.createApiKey(ADA.sub, { name: "x", scopes: ["a"] });
  const secret = KEY.exec(key)![2];
  const record = JSON.stringify(saved[0]);
  const listed = JSON.stringify(await memoryStoreOf(auth).listApiKeys(ADA.sub));
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)),
  );
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  const base64 = btoa(String.fromCharCode(...digest));
  const base64url = base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  for (const text of [record, listed]) {
    assert.ok(!text.includes(key));
    for (const plain of [hex, base64, base64url, base64url.slice(0, 20)]) {
      assert.ok(!text.includes(plain), "a plain SHA-256 of the key");
    }
    for (let i = 0; i + 8 <= secret.length; i++) {
      assert.ok(!text.includes(secret.slice(i, i + 8)), `secret[${i}..${i + 8}]`);
    }
  }
  assert.match(saved[0].hash, /^[A-Za-z0-9_-]{43}$/);
  assert.match(saved[0].kid, /^[A-Za-z0-9_-]{11}$/);
});

/** The instance's store as the app handed it (through the config the test built). */
function memoryStoreOf(_auth: unknown): ApiKeyStore {
  return lastStore!;
}
let lastStore: ApiKeyStore | undefined;

Deno.test("a deleted key and an expired key resolve null", async () => {
  const { auth, clock } = keyAuth();
  const browser = await signedIn(auth);
  const revoked = await (await create(browser, { name: "old" })).json();
  const token = await browser.csrf();
  const deleted = await browser.fetch("DELETE", `/auth/apiKeys/${revoked.apiKey.id}`, {
    headers: { "X-CSRF-Token": token },
  });
  assert.equal(deleted.status, 204);
  assert.equal(await auth.api.verifyApiKey(bearer(revoked.key)), null);
  const expiring = await (await create(browser, { name: "short", expiresIn: 60 })).json();
  assert.equal(
    expiring.apiKey.expiresAt,
    new Date((Math.floor(clock.now / 1000) + 60) * 1000).toISOString(),
  );
  assert.ok(await auth.api.verifyApiKey(bearer(expiring.key)));
  clock.advance(61);
  assert.equal(await auth.api.verifyApiKey(bearer(expiring.key)), null);
  const list = await (await browser.fetch("GET", "/auth/apiKeys")).json();
  assert.deepEqual(list, { apiKeys: [] });
});

Deno.test("nobody lists or deletes another user's key", async () => {
  const { auth } = keyAuth();
  const ada = await signedIn(auth, "ada");
  const grace = await signedIn(auth, "grace");
  const adaKey = await (await create(ada, { name: "ada's" })).json();
  await create(grace, { name: "grace's" });
  const graceList = await (await grace.fetch("GET", "/auth/apiKeys")).json();
  assert.deepEqual(graceList.apiKeys.map((k: { name: string }) => k.name), ["grace's"]);
  const token = await grace.csrf();
  const response = await grace.fetch("DELETE", `/auth/apiKeys/${adaKey.apiKey.id}`, {
    headers: { "X-CSRF-Token": token },
  });
  assert.equal(response.status, 404);
  assert.equal((await response.json()).error, "invalid_request");
  assert.equal(await auth.api.deleteApiKey(GRACE.sub, adaKey.apiKey.id), false);
  assert.ok(await auth.api.verifyApiKey(bearer(adaKey.key)));
  const adaList = await (await ada.fetch("GET", "/auth/apiKeys")).json();
  assert.deepEqual(adaList.apiKeys.map((k: { name: string }) => k.name), ["ada's"]);
});

Deno.test("GET /apiKeys never shows a hash, a kid or a user", async () => {
  const { auth } = keyAuth();
  const browser = await signedIn(auth);
  await create(browser, { name: "x" });
  const text = await (await browser.fetch("GET", "/auth/apiKeys")).text();
  for (const word of ["hash", "kid", "sub", "sk_"]) assert.ok(!text.includes(`"${word}`), word);
});

Deno.test("POST and DELETE /apiKeys need the CSRF token, and a session", async () => {
  const { auth, total } = keyAuth();
  const browser = await signedIn(auth);
  await browser.csrf();
  const noToken = await browser.fetch("POST", "/auth/apiKeys", { json: { name: "x" } });
  assert.equal(noToken.status, 403);
  assert.equal((await noToken.json()).error, "invalid_csrf_token");
  const wrong = await browser.fetch("DELETE", "/auth/apiKeys/0123456789abcdef", {
    headers: { "X-CSRF-Token": "forged" },
  });
  assert.equal(wrong.status, 403);
  const crossSite = await browser.fetch("POST", "/auth/apiKeys", {
    json: { name: "x" },
    headers: { "X-CSRF-Token": await browser.csrf(), Origin: "https://evil.example" },
  });
  assert.equal(crossSite.status, 403);
  assert.equal(total(), 0, "no key was made or deleted");
  const anonymous = new Browser(auth.handlers.ALL);
  const token = await anonymous.csrf();
  const noSession = await anonymous.fetch("POST", "/auth/apiKeys", {
    json: { name: "x" },
    headers: { "X-CSRF-Token": token },
  });
  assert.equal(noSession.status, 401);
  assert.equal((await anonymous.fetch("GET", "/auth/apiKeys")).status, 401);
});

Deno.test("POST /apiKeys refuses a bad name, scopes, lifetime or an unknown field with 400", async () => {
  const { auth, total } = keyAuth();
  const browser = await signedIn(auth);
  for (
    const body of [
      {},
      { name: "" },
      { name: "x".repeat(101) },
      { name: "a\nb" },
      { name: 42 },
      { name: "x", scopes: "not an array of strings".split("").map(Number) },
      { name: "x", scopes: [1] },
      { name: "x", expiresIn: 59 },
      { name: "x", expiresIn: 5 * 365 * 86400 + 1 },
      { name: "x", expiresIn: 100.5 },
      { name: "x", admin: true },
    ]
  ) {
    const response = await create(browser, body);
    assert.equal(response.status, 400, JSON.stringify(body));
    const error = await response.json();
    assert.equal(error.error, "invalid_request");
    assert.ok(!String(error.error_description).includes("a\nb"));
  }
  assert.equal(total(), 0);
});

Deno.test("keys made before a secret rotation verify while the old secret is listed", async () => {
  const store = memoryStore();
  const OLD = SECRET;
  const NEW = "another-secret-0123456789abcdef-0123456789abcdef";
  const before = makeAuth({ secret: OLD, apiKeys: { store } });
  const { key } = await before.api.createApiKey(ADA.sub, { name: "x" });
  const rotated = makeAuth({ secret: [NEW, OLD], apiKeys: { store } });
  assert.ok(await rotated.api.verifyApiKey(bearer(key)));
  const { key: fresh } = await rotated.api.createApiKey(ADA.sub, { name: "y" });
  const dropped = makeAuth({ secret: NEW, apiKeys: { store } });
  assert.equal(await dropped.api.verifyApiKey(bearer(key)), null);
  assert.ok(await dropped.api.verifyApiKey(bearer(fresh)));
  // Another deployment with the same secret (another instance) verifies the same keys.
  assert.ok(await makeAuth({ secret: OLD, apiKeys: { store } }).api.verifyApiKey(bearer(key)));
});

Deno.test("a key whose stored hash does not match is refused (a forged record)", async () => {
  const { auth, saved } = keyAuth();
  const { key } = await auth.api.createApiKey(ADA.sub, { name: "x" });
  const other = KEY.exec(key)!;
  // Same id and a fresh secret with a valid CRC is still not the key.
  const { key: sibling } = await auth.api.createApiKey(ADA.sub, { name: "y" });
  const forged = `sk_${other[1]}_${KEY.exec(sibling)![2]}`;
  const crcOf = (await import("../../src/service_tokens/crc32.ts")).crc32(forged);
  let crc = "";
  for (let i = 0, v = crcOf; i < 6; i++, v = Math.floor(v / 62)) crc = BASE62[v % 62] + crc;
  assert.equal(await auth.api.verifyApiKey(bearer(forged + crc)), null);
  assert.equal(saved.length, 2);
});

Deno.test("API keys need a string or byte secret first in the list", async () => {
  const pair = await crypto.subtle.generateKey("Ed25519", false, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  assert.throws(
    () =>
      createAuth({
        oauth: [],
        secret: pair,
        jwt: { mode: "signed" },
        env: {},
        apiKeys: { store: memoryStore() },
      }),
    (error: Error) => error instanceof TypeError && /string or byte secret/.test(error.message),
  );
  assert.throws(() => makeAuth({ apiKeys: { store: {} as ApiKeyStore } }), TypeError);
});

Deno.test("a failing store fails closed: verifyApiKey rejects with 503, POST answers 503", async () => {
  const failing: ApiKeyStore = {
    saveApiKey: () => Promise.reject(new Error("down")),
    getApiKey: () => Promise.reject(new Error("down")),
    listApiKeys: () => Promise.reject(new Error("down")),
    deleteApiKey: () => Promise.reject(new Error("down")),
    touchApiKey: () => Promise.reject(new Error("down")),
  };
  const good = keyAuth();
  const { key } = await good.auth.api.createApiKey(ADA.sub, { name: "x" });
  const { auth } = keyAuth({ apiKeys: { store: failing } });
  await assert.rejects(auth.api.verifyApiKey(bearer(key)), (error: Error) => {
    assert.ok(error instanceof AuthError);
    assert.equal(error.status, 503);
    return true;
  });
  const browser = await signedIn(auth);
  const response = await create(browser, { name: "x" });
  assert.equal(response.status, 503);
  assert.equal((await response.json()).error, "temporarily_unavailable");
});

Deno.test("the api methods need apiKeys and check their arguments", async () => {
  const plain = makeAuth();
  await assert.rejects(plain.api.verifyApiKey(bearer("x")), TypeError);
  await assert.rejects(plain.api.listApiKeys(ADA.sub), TypeError);
  const { auth } = keyAuth();
  await assert.rejects(auth.api.listApiKeys(""), TypeError);
  await assert.rejects(auth.api.createApiKey(ADA.sub, { name: "" }), AuthError);
  assert.equal(await auth.api.deleteApiKey(ADA.sub, "../../etc"), false);
  // Without apiKeys the routes do not exist.
  const response = await plain.handlers.ALL(new Request("http://localhost:8000/auth/apiKeys"));
  assert.equal(response.status, 404);
});
