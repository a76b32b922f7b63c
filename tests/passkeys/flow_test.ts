// The passkey routes end to end with the software authenticator: registration, sign-in,
// listing and deletion, and every refusal the contract names (DECISIONS "Passkeys").
import assert from "node:assert/strict";
import { createAuth, memoryStore } from "../../mod.ts";
import { decodeBase64Url } from "../../src/jose/base64url.ts";
import { createAuthenticator, FLAG } from "../webauthn/_authenticator.ts";
import { assertError, setCookieLine } from "../server/_helpers.ts";
import {
  ADA,
  browserFor,
  GRACE,
  logText,
  passkeyAuth,
  passkeySignIn,
  passwordSignIn,
  post,
  registerNew,
  registerOptions,
  signInOptions,
} from "./_helpers.ts";

const CHALLENGE_COOKIE = "__Host-service-stack.passkey_challenge";

Deno.test("passkeys: register options need a session and CSRF, and give the contract's options", async () => {
  const { auth } = passkeyAuth();
  const browser = browserFor(auth);
  // No CSRF token: 403; CSRF but no session: 401.
  await assertError(
    await browser.fetch("POST", "/auth/passkey/register/options", { json: {} }),
    403,
    "invalid_csrf_token",
  );
  await assertError(
    await post(browser, "/auth/passkey/register/options", {}),
    401,
    "invalid_session_token",
  );
  await passwordSignIn(browser);
  const response = await post(browser, "/auth/passkey/register/options", {});
  assert.equal(response.status, 200);
  const line = setCookieLine(response, CHALLENGE_COOKIE);
  assert.ok(line, "the challenge cookie is set");
  assert.match(line!, /Max-Age=300/);
  assert.match(line!, /HttpOnly/);
  const options = await response.json();
  assert.equal(decodeBase64Url(options.challenge).length, 32);
  assert.equal(options.rp.id, "example.com");
  assert.notEqual(options.user.id, ADA.sub);
  assert.equal(decodeBase64Url(options.user.id).length, 32);
  assert.ok(!new TextDecoder().decode(decodeBase64Url(options.user.id)).includes(ADA.sub));
  assert.equal(options.user.name, ADA.email);
  assert.deepEqual(options.excludeCredentials, []);
  assert.equal(options.authenticatorSelection.residentKey, "required");
  assert.equal(options.authenticatorSelection.userVerification, "required");
  assert.equal(options.attestation, "none");
  assert.deepEqual(options.pubKeyCredParams.map((p: { alg: number }) => p.alg), [-8, -7, -257]);
  // The handle is stable for a user and differs between users.
  assert.equal(((await registerOptions(browser)).user as { id: string }).id, options.user.id);
  const other = browserFor(auth);
  await passwordSignIn(other, "grace");
  assert.notEqual(((await registerOptions(other)).user as { id: string }).id, options.user.id);
  // A body with keys is refused.
  await assertError(
    await post(browser, "/auth/passkey/register/options", { x: 1 }),
    400,
    "invalid_request",
  );
});

Deno.test("passkeys: register, list, sign out, sign in with the passkey, delete", async () => {
  const { auth, store, signIns, logs } = passkeyAuth();
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const { authenticator, response } = await registerNew(browser, -7, { counter: 5 });
  assert.equal(response.status, 201);
  const { passkey } = await response.json();
  assert.equal(passkey.id, authenticator.id);
  assert.equal(passkey.name, "Laptop");
  assert.equal(passkey.deviceType, "singleDevice");
  assert.deepEqual(passkey.transports, ["internal", "hybrid"]);
  assert.equal("publicKey" in passkey, false);
  assert.equal("sub" in passkey, false);
  const stored = await store.getPasskey(authenticator.id);
  assert.equal(stored?.sub, ADA.sub);
  assert.equal(stored?.algorithm, -7);
  assert.equal(stored?.counter, 5);

  // Listed, never with the public key; excluded from the next registration's options.
  const list = await browser.fetch("GET", "/auth/passkeys");
  assert.equal(list.status, 200);
  const listed = await list.json();
  assert.deepEqual(listed.passkeys.map((p: { id: string }) => p.id), [authenticator.id]);
  assert.ok(!JSON.stringify(listed).includes(stored!.publicKey));
  const options = await registerOptions(browser);
  assert.deepEqual(options.excludeCredentials, [
    { type: "public-key", id: authenticator.id, transports: ["internal", "hybrid"] },
  ]);

  // A fresh browser signs in with the passkey alone.
  const fresh = browserFor(auth);
  const signInOpts = await signInOptions(fresh);
  assert.deepEqual(signInOpts.allowCredentials, []);
  assert.equal(signInOpts.rpId, "example.com");
  assert.equal(signInOpts.userVerification, "required");
  const signedIn = await passkeySignIn(fresh, authenticator);
  assert.equal(signedIn.status, 200, await signedIn.clone().text());
  const session = await signedIn.json();
  assert.equal(session.user.sub, ADA.sub);
  assert.equal(session.user.email, ADA.email);
  assert.ok(setCookieLine(signedIn, "__Host-service-stack.session_token"));
  assert.match(setCookieLine(signedIn, CHALLENGE_COOKIE) ?? "", /Max-Age=0/);
  assert.deepEqual(signIns.at(-1), { provider: "passkey", sub: ADA.sub });
  const after = await store.getPasskey(authenticator.id);
  assert.equal(after?.counter, 6);
  assert.equal(typeof after?.lastUsedAt, "number");
  const me = await (await fresh.fetch("GET", "/auth/session")).json();
  assert.equal(me.user.sub, ADA.sub);

  // Deleted by its owner: 204, then gone; a second delete is 404.
  const token = await fresh.csrf();
  const path = `/auth/passkeys/${encodeURIComponent(authenticator.id)}`;
  const deleted = await fresh.fetch("DELETE", path, { headers: { "X-CSRF-Token": token } });
  assert.equal(deleted.status, 204);
  assert.equal(await store.getPasskey(authenticator.id), null);
  await assertError(
    await fresh.fetch("DELETE", path, { headers: { "X-CSRF-Token": token } }),
    404,
    "invalid_request",
  );
  // No log line carries a key, a signature or a challenge.
  assert.ok(!logText(logs).includes(stored!.publicKey));
  assert.ok(!logText(logs).includes(options.challenge as string));
});

Deno.test("passkeys: every algorithm registers and signs in (EdDSA, ES256, RS256)", async () => {
  for (const alg of [-8, -7, -257] as const) {
    const { auth, store } = passkeyAuth();
    const browser = browserFor(auth);
    await passwordSignIn(browser);
    const { authenticator, response } = await registerNew(browser, alg);
    assert.equal(response.status, 201, `alg ${alg}`);
    assert.equal((await store.getPasskey(authenticator.id))?.algorithm, alg);
    const signedIn = await passkeySignIn(browserFor(auth), authenticator);
    assert.equal(signedIn.status, 200, `alg ${alg}: ${await signedIn.clone().text()}`);
  }
});

Deno.test("passkeys: an unknown credential and a bad signature get the very same answer", async () => {
  const { auth, logs } = passkeyAuth();
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const { authenticator } = await registerNew(browser);
  const stranger = await createAuthenticator(-7, { userHandle: authenticator.userHandle });
  const unknown = await passkeySignIn(browserFor(auth), stranger);
  const badSignature = await passkeySignIn(browserFor(auth), authenticator, {
    signWith: stranger,
  });
  const a = await assertError(unknown, 400, "access_denied");
  const b = await assertError(badSignature, 400, "access_denied");
  assert.deepEqual(a, b);
  const reasons = logs.filter((e) => e.message === "passkey sign-in refused").map((e) =>
    e.details?.reason
  );
  assert.deepEqual(reasons, ["unknown credential", "signature"]);
});

Deno.test("passkeys: a replayed assertion is refused, and so is a second use of a challenge", async () => {
  const { auth } = passkeyAuth();
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const { authenticator } = await registerNew(browser);
  const attacker = browserFor(auth);
  const options = await signInOptions(attacker);
  const json = await authenticator.authenticate({ challenge: options.challenge as string });
  const cookies = new Map(attacker.cookies);
  assert.equal((await post(attacker, "/auth/passkey/signIn", { response: json })).status, 200);
  // The same response with the same challenge cookie, as captured.
  attacker.cookies = cookies;
  await assertError(
    await post(attacker, "/auth/passkey/signIn", { response: json }),
    400,
    "access_denied",
  );
});

Deno.test("passkeys: a counter that goes back is refused and logged as a possible clone", async () => {
  const { auth, logs, store } = passkeyAuth();
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const { authenticator } = await registerNew(browser, -8, { counter: 10 });
  assert.equal((await passkeySignIn(browserFor(auth), authenticator)).status, 200); // 11
  for (const signCount of [11, 3, 0]) {
    await assertError(
      await passkeySignIn(browserFor(auth), authenticator, { signCount }),
      400,
      "access_denied",
    );
  }
  assert.equal((await store.getPasskey(authenticator.id))?.counter, 11);
  const clones = logs.filter((e) => e.message.includes("possible cloned authenticator"));
  assert.equal(clones.length, 3);
  assert.equal(clones[0].level, "warn");
  assert.equal(clones[0].details?.reason, "counter");
});

Deno.test("passkeys: a user handle of another user is refused", async () => {
  const { auth } = passkeyAuth();
  const ada = browserFor(auth);
  await passwordSignIn(ada);
  const { authenticator } = await registerNew(ada);
  const grace = browserFor(auth);
  await passwordSignIn(grace, "grace");
  const graceHandle = (await registerOptions(grace)).user as { id: string };
  for (const userHandle of [graceHandle.id, null, "AAAA"]) {
    await assertError(
      await passkeySignIn(browserFor(auth), authenticator, { userHandle }),
      400,
      "access_denied",
    );
  }
});

Deno.test("passkeys: findUser finding no user is 401 access_denied", async () => {
  let known = true;
  const { auth } = passkeyAuth({ findUser: (sub) => (known && sub === ADA.sub ? ADA : null) });
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const { authenticator } = await registerNew(browser);
  known = false;
  await assertError(await passkeySignIn(browserFor(auth), authenticator), 401, "access_denied");
});

Deno.test("passkeys: callbacks.signIn sees provider passkey and may refuse it (401)", async () => {
  const store = memoryStore();
  const first = passkeyAuth({ store });
  const browser = browserFor(first.auth);
  await passwordSignIn(browser);
  const { authenticator } = await registerNew(browser);
  const providers: string[] = [];
  const second = passkeyAuth({
    store,
    config: {
      callbacks: {
        signIn: ({ provider }) => {
          providers.push(provider);
          return null;
        },
      },
    },
  });
  await assertError(
    await passkeySignIn(browserFor(second.auth), authenticator),
    401,
    "access_denied",
  );
  assert.deepEqual(providers, ["passkey"]);
});

Deno.test("passkeys: the challenge is bound to the ceremony and, for registration, to the session", async () => {
  const { auth, store } = passkeyAuth();
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  // A sign-in challenge does not register.
  const signInOpts = await signInOptions(browser);
  const authenticator = await createAuthenticator(-7);
  await assertError(
    await post(browser, "/auth/passkey/register", {
      response: await authenticator.register({ challenge: signInOpts.challenge as string }),
    }),
    400,
    "invalid_request",
  );
  // A registration challenge of this session, used after signing in again (a new session).
  const options = await registerOptions(browser);
  await passwordSignIn(browser);
  await assertError(
    await post(browser, "/auth/passkey/register", {
      response: await authenticator.register({ challenge: options.challenge as string }),
    }),
    400,
    "invalid_request",
  );
  // A registration challenge does not sign in.
  const { authenticator: registered } = await registerNew(browser);
  const regOpts = await registerOptions(browser);
  await assertError(
    await post(browser, "/auth/passkey/signIn", {
      response: await registered.authenticate({ challenge: regOpts.challenge as string }),
    }),
    400,
    "access_denied",
  );
  // Without any challenge cookie.
  const bare = browserFor(auth);
  await assertError(
    await post(bare, "/auth/passkey/signIn", {
      response: await registered.authenticate({ challenge: regOpts.challenge as string }),
    }),
    400,
    "access_denied",
  );
  assert.deepEqual((await store.listPasskeys(ADA.sub)).map((p) => p.id), [registered.id]);
});

Deno.test("passkeys: a registration response used twice stores one passkey", async () => {
  const { auth, store } = passkeyAuth();
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const options = await registerOptions(browser);
  const authenticator = await createAuthenticator(-7);
  const json = await authenticator.register({ challenge: options.challenge as string });
  const cookies = new Map(browser.cookies);
  assert.equal((await post(browser, "/auth/passkey/register", { response: json })).status, 201);
  browser.cookies = cookies;
  await assertError(
    await post(browser, "/auth/passkey/register", { response: json }),
    400,
    "invalid_request",
  );
  assert.equal((await store.listPasskeys(ADA.sub)).length, 1);
});

Deno.test("passkeys: a credential id registered by another user is refused, nothing stored", async () => {
  const { auth, store, logs } = passkeyAuth();
  const ada = browserFor(auth);
  await passwordSignIn(ada);
  const { authenticator } = await registerNew(ada);
  const grace = browserFor(auth);
  await passwordSignIn(grace, "grace");
  const options = await registerOptions(grace);
  // The same credential id with another key (an attacker who learned the id).
  const impostor = await createAuthenticator(-7, { credentialId: authenticator.credentialId });
  await assertError(
    await post(grace, "/auth/passkey/register", {
      response: await impostor.register({ challenge: options.challenge as string }),
    }),
    400,
    "invalid_request",
  );
  assert.deepEqual(await store.listPasskeys(GRACE.sub), []);
  assert.equal((await store.getPasskey(authenticator.id))?.sub, ADA.sub);
  assert.equal(logs.at(-1)?.details?.reason, "credential registered");
  // Ada's passkey still signs Ada in.
  assert.equal((await passkeySignIn(browserFor(auth), authenticator)).status, 200);
});

Deno.test("passkeys: DELETE /passkeys/:id is 404 for anyone else's, unknown or malformed ids", async () => {
  const { auth, store } = passkeyAuth();
  const ada = browserFor(auth);
  await passwordSignIn(ada);
  const { authenticator } = await registerNew(ada);
  const grace = browserFor(auth);
  await passwordSignIn(grace, "grace");
  const token = await grace.csrf();
  for (const id of [authenticator.id, "AAAA", "not%20base64url", "x".repeat(2000)]) {
    await assertError(
      await grace.fetch("DELETE", `/auth/passkeys/${id}`, { headers: { "X-CSRF-Token": token } }),
      404,
      "invalid_request",
    );
  }
  // Without CSRF: 403; without a session: 401.
  await assertError(
    await ada.fetch("DELETE", `/auth/passkeys/${authenticator.id}`),
    403,
    "invalid_csrf_token",
  );
  const anonymous = browserFor(auth);
  const anonToken = await anonymous.csrf();
  await assertError(
    await anonymous.fetch("DELETE", `/auth/passkeys/${authenticator.id}`, {
      headers: { "X-CSRF-Token": anonToken },
    }),
    401,
    "invalid_session_token",
  );
  await assertError(await anonymous.fetch("GET", "/auth/passkeys"), 401, "invalid_session_token");
  // Grace sees none of Ada's.
  assert.deepEqual((await (await grace.fetch("GET", "/auth/passkeys")).json()).passkeys, []);
  assert.ok(await store.getPasskey(authenticator.id));
  // The per-method handler answers DELETE; GET on the same path is 405.
  const del = await auth.handlers.DELETE(
    new Request(`https://example.com/auth/passkeys/x`, { method: "DELETE" }),
  );
  assert.equal(del.status, 403);
  await del.body?.cancel();
  await assertError(
    await ada.fetch("GET", `/auth/passkeys/${authenticator.id}`),
    405,
    "invalid_request",
  );
});

Deno.test("passkeys: api.listPasskeys and api.deletePasskey act for a sub", async () => {
  const { auth } = passkeyAuth();
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const { authenticator } = await registerNew(browser);
  const listed = await auth.api.listPasskeys(ADA.sub);
  assert.deepEqual(listed.map((p) => p.id), [authenticator.id]);
  assert.equal("publicKey" in listed[0], false);
  assert.deepEqual(await auth.api.listPasskeys(GRACE.sub), []);
  assert.equal(await auth.api.deletePasskey(GRACE.sub, authenticator.id), false);
  assert.equal(await auth.api.deletePasskey(ADA.sub, authenticator.id), true);
  assert.deepEqual(await auth.api.listPasskeys(ADA.sub), []);
  const plain = createAuth({ oauth: [], secret: "x".repeat(32), logger: false, env: {} });
  await assert.rejects(() => plain.api.listPasskeys(ADA.sub), TypeError);
});

Deno.test("passkeys: without the passkeys option every passkey route is 404", async () => {
  const auth = createAuth({ oauth: [], secret: "x".repeat(32), logger: false, env: {} });
  for (
    const [method, path] of [
      ["POST", "passkey/register/options"],
      ["POST", "passkey/register"],
      ["POST", "passkey/signIn/options"],
      ["POST", "passkey/signIn"],
      ["GET", "passkeys"],
      ["DELETE", "passkeys/abc"],
    ]
  ) {
    const response = await auth.handlers.ALL(
      new Request(`http://localhost/auth/${path}`, { method }),
    );
    await assertError(response, 404, "invalid_request");
  }
});

Deno.test("passkeys: configuration mistakes are TypeErrors that name the fix", () => {
  const base = { oauth: [], secret: "x".repeat(32), logger: false as const, env: {} };
  const store = memoryStore();
  const findUser = () => null;
  const cases: [unknown, RegExp][] = [
    [{ findUser }, /passkeys\.store/],
    [{ store, findUser: 1 }, /passkeys\.findUser/],
    [{ store, findUser, rpID: "https://example.com" }, /passkeys\.rpID/],
    [{ store, findUser, origins: ["https://example.com/path"] }, /passkeys\.origins/],
    [{ store, findUser, userVerification: "always" }, /passkeys\.userVerification/],
    [{ store, findUser, extra: 1 }, /passkeys\.extra/],
  ];
  for (const [passkeys, message] of cases) {
    assert.throws(() => createAuth({ ...base, passkeys } as never), { name: "TypeError", message });
  }
});

Deno.test("passkeys: a passkey registered under a secret still signs in after rotation", async () => {
  const store = memoryStore();
  const old = passkeyAuth({ store, config: { secret: "old-secret-0123456789abcdef-0123456789" } });
  const browser = browserFor(old.auth);
  await passwordSignIn(browser);
  const { authenticator } = await registerNew(browser);
  const rotated = passkeyAuth({
    store,
    config: {
      secret: ["new-secret-0123456789abcdef-0123456789", "old-secret-0123456789abcdef-0123456789"],
    },
  });
  assert.equal((await passkeySignIn(browserFor(rotated.auth), authenticator)).status, 200);
  // Once the old secret is dropped, its handles are no longer the owner's.
  const dropped = passkeyAuth({
    store,
    config: { secret: "new-secret-0123456789abcdef-0123456789" },
  });
  await assertError(
    await passkeySignIn(browserFor(dropped.auth), authenticator),
    400,
    "access_denied",
  );
});

Deno.test("passkeys: passkeys.origins adds origins; other origins and cross-origin frames are refused", async () => {
  const { auth } = passkeyAuth({ passkeys: { origins: ["https://login.example.com"] } });
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const { authenticator } = await registerNew(browser);
  assert.equal(
    (await passkeySignIn(browserFor(auth), authenticator, { origin: "https://login.example.com" }))
      .status,
    200,
  );
  for (
    const knobs of [
      { origin: "https://evil.example" },
      { clientData: (d: Record<string, unknown>) => void (d.crossOrigin = true) },
      { rpId: "evil.example" },
      { flags: FLAG.UP },
      { flags: FLAG.UV },
    ]
  ) {
    await assertError(
      await passkeySignIn(browserFor(auth), authenticator, knobs),
      400,
      "access_denied",
    );
  }
});

Deno.test("passkeys: userVerification preferred accepts an assertion without UV", async () => {
  const { auth } = passkeyAuth({ passkeys: { userVerification: "preferred" } });
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const options = await registerOptions(browser);
  assert.equal(
    (options.authenticatorSelection as { userVerification: string }).userVerification,
    "preferred",
  );
  const authenticator = await createAuthenticator(-7, {
    userHandle: (options.user as { id: string }).id,
  });
  const registered = await post(browser, "/auth/passkey/register", {
    response: await authenticator.register({
      challenge: options.challenge as string,
      flags: FLAG.UP | FLAG.AT,
    }),
  });
  assert.equal(registered.status, 201);
  assert.equal(
    (await passkeySignIn(browserFor(auth), authenticator, { flags: FLAG.UP })).status,
    200,
  );
});

Deno.test("passkeys: a synced passkey (BE) keeps BE at sign-in, and a counter-less one signs in again and again", async () => {
  const { auth, store, logs } = passkeyAuth();
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const options = await registerOptions(browser);
  const authenticator = await createAuthenticator(-8, {
    userHandle: (options.user as { id: string }).id,
  });
  const registered = await post(browser, "/auth/passkey/register", {
    response: await authenticator.register({
      challenge: options.challenge as string,
      flags: FLAG.UP | FLAG.UV | FLAG.AT | FLAG.BE | FLAG.BS,
    }),
  });
  assert.equal(registered.status, 201);
  assert.equal((await registered.json()).passkey.deviceType, "multiDevice");
  assert.equal((await store.getPasskey(authenticator.id))?.backedUp, true);
  const synced = { flags: FLAG.UP | FLAG.UV | FLAG.BE | FLAG.BS };
  assert.equal((await passkeySignIn(browserFor(auth), authenticator, synced)).status, 200);
  assert.equal((await passkeySignIn(browserFor(auth), authenticator, synced)).status, 200);
  await assertError(
    await passkeySignIn(browserFor(auth), authenticator, { flags: FLAG.UP | FLAG.UV }),
    400,
    "access_denied",
  );
  assert.equal(logs.at(-1)?.details?.reason, "backup eligibility");
});
