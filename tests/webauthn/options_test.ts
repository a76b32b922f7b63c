import assert from "node:assert/strict";
import { creationOptions, generateChallenge, requestOptions } from "../../src/webauthn/options.ts";
import { deriveUserHandle } from "../../src/webauthn/user_handle.ts";
import { decodeBase64Url } from "../../src/jose/base64url.ts";

Deno.test("generateChallenge returns 32 fresh random bytes in base64url", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 100; i++) {
    const c = generateChallenge();
    assert.equal(decodeBase64Url(c).length, 32);
    seen.add(c);
  }
  assert.equal(seen.size, 100);
});

Deno.test("creationOptions: discoverable, attestation none, EdDSA/ES256/RS256, UV required, 5 minutes", () => {
  const options = creationOptions({
    rp: { id: "example.com", name: "Example" },
    user: { id: "aGFuZGxl", name: "ada@example.com", displayName: "Ada" },
    excludeCredentials: [{ id: "Y3JlZC0x", transports: ["internal"] }, {
      id: "Y3JlZC0y",
      transports: [],
    }],
  });
  assert.equal(decodeBase64Url(options.challenge).length, 32);
  assert.deepEqual({ ...options, challenge: "" }, {
    rp: { id: "example.com", name: "Example" },
    user: { id: "aGFuZGxl", name: "ada@example.com", displayName: "Ada" },
    challenge: "",
    pubKeyCredParams: [
      { type: "public-key", alg: -8 },
      { type: "public-key", alg: -7 },
      { type: "public-key", alg: -257 },
    ],
    timeout: 300_000,
    excludeCredentials: [
      { type: "public-key", id: "Y3JlZC0x", transports: ["internal"] },
      { type: "public-key", id: "Y3JlZC0y" },
    ],
    authenticatorSelection: {
      residentKey: "required",
      requireResidentKey: true,
      userVerification: "required",
    },
    attestation: "none",
  });
  assert.notEqual(
    creationOptions({ rp: options.rp, user: options.user }).challenge,
    options.challenge,
  );
});

Deno.test("creationOptions honours userVerification, timeout, algorithms and a given challenge", () => {
  const options = creationOptions({
    rp: { id: "example.com", name: "Example" },
    user: { id: "aGFuZGxl", name: "ada", displayName: "Ada" },
    userVerification: "preferred",
    timeout: 60_000,
    algorithms: [-7],
    challenge: "Y2hhbGxlbmdlLWNoYWxsZW5nZQ",
  });
  assert.equal(options.authenticatorSelection.userVerification, "preferred");
  assert.equal(options.timeout, 60_000);
  assert.deepEqual(options.pubKeyCredParams, [{ type: "public-key", alg: -7 }]);
  assert.equal(options.challenge, "Y2hhbGxlbmdlLWNoYWxsZW5nZQ");
  assert.deepEqual(options.excludeCredentials, []);
});

Deno.test("requestOptions: empty allowCredentials, the RP ID, UV required by default", () => {
  const options = requestOptions({ rpId: "example.com" });
  assert.equal(decodeBase64Url(options.challenge).length, 32);
  assert.deepEqual({ ...options, challenge: "" }, {
    challenge: "",
    timeout: 300_000,
    rpId: "example.com",
    allowCredentials: [],
    userVerification: "required",
  });
  assert.equal(
    requestOptions({ rpId: "a.example", userVerification: "discouraged" }).userVerification,
    "discouraged",
  );
});

Deno.test("deriveUserHandle: 32 bytes, stable per key and sub, never the sub, different per key and sub", async () => {
  const key = await crypto.subtle.importKey(
    "raw",
    new Uint8Array(32).fill(1),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const other = await crypto.subtle.importKey(
    "raw",
    new Uint8Array(32).fill(2),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const a = await deriveUserHandle(key, "user-1");
  assert.equal(decodeBase64Url(a).length, 32);
  assert.equal(await deriveUserHandle(key, "user-1"), a);
  assert.notEqual(await deriveUserHandle(key, "user-2"), a);
  assert.notEqual(await deriveUserHandle(other, "user-1"), a);
  assert.ok(!new TextDecoder().decode(decodeBase64Url(a)).includes("user-1"));
  // Labelled: not the bare HMAC of the sub, so the key's other uses cannot collide with it.
  const bare = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode("user-1")),
  );
  assert.notDeepEqual(decodeBase64Url(a), bare);
});
