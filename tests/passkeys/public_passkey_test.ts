// The public passkey (201 { passkey }, GET /passkeys, api.listPasskeys): every field DECISIONS
// lists for the stored record but the public key (and the owner), with the counter and the last
// sign-in kept up to date.
import assert from "node:assert/strict";
import {
  ADA,
  browserFor,
  passkeyAuth,
  passkeySignIn,
  passwordSignIn,
  registerNew,
} from "./_helpers.ts";

const FIELDS = [
  "aaguid",
  "algorithm",
  "backedUp",
  "counter",
  "createdAt",
  "deviceType",
  "id",
  "name",
  "transports",
];

Deno.test("passkeys: the public passkey carries algorithm, counter and lastUsedAt, never the public key", async () => {
  for (const alg of [-8, -7, -257] as const) {
    const { auth, store } = passkeyAuth();
    const browser = browserFor(auth);
    await passwordSignIn(browser);
    const { authenticator, response } = await registerNew(browser, alg, { counter: 7 });
    assert.equal(response.status, 201);
    const { passkey } = await response.json();
    assert.deepEqual(Object.keys(passkey).sort(), FIELDS);
    assert.equal(passkey.algorithm, alg);
    assert.equal(passkey.counter, 7);
    const stored = (await store.getPasskey(authenticator.id))!;

    // After a sign-in: the new counter and when it happened, in the route and in the API.
    assert.equal((await passkeySignIn(browserFor(auth), authenticator)).status, 200);
    const list = await browser.fetch("GET", "/auth/passkeys");
    assert.equal(list.status, 200);
    const text = await list.text();
    assert.ok(!text.includes(stored.publicKey), "no public key");
    const [listed] = JSON.parse(text).passkeys;
    assert.deepEqual(Object.keys(listed).sort(), [...FIELDS, "lastUsedAt"].sort());
    assert.equal(listed.algorithm, alg);
    assert.equal(listed.counter, 8);
    assert.equal(typeof listed.lastUsedAt, "number");
    assert.ok(listed.lastUsedAt >= passkey.createdAt);
    assert.deepEqual(await auth.api.listPasskeys(ADA.sub), [listed]);
    assert.equal(JSON.stringify(await auth.api.listPasskeys(ADA.sub)).includes("publicKey"), false);
  }
});
