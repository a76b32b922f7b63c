// Bad input to the passkey routes: refused with the documented status, quickly, never a 5xx,
// with nothing stored; a failing store fails closed (503).
import assert from "node:assert/strict";
import type { PasskeyStore } from "../../mod.ts";
import { memoryStore } from "../../mod.ts";
import { b64, createAuthenticator, fromB64 } from "../webauthn/_authenticator.ts";
import { prng } from "../_prng.ts";
import { assertError } from "../server/_helpers.ts";
import {
  ADA,
  browserFor,
  passkeyAuth,
  passkeySignIn,
  passwordSignIn,
  post,
  registerNew,
  registerOptions,
  signInOptions,
} from "./_helpers.ts";

const big = "A".repeat(70 * 1024);

Deno.test("passkeys: malformed registration bodies are 400 invalid_request (413 when too large), nothing stored", async () => {
  const { auth, store } = passkeyAuth();
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const options = await registerOptions(browser);
  const authenticator = await createAuthenticator(-7);
  const good = await authenticator.register({ challenge: options.challenge as string });
  const response = good.response as Record<string, unknown>;
  const bodies: unknown[] = [
    {},
    { response: null },
    { response: "text" },
    { response: [] },
    { response: { ...good, type: "other" } },
    { response: { ...good, id: "!!", rawId: "!!" } },
    { response: { ...good, response: { ...response, clientDataJSON: "%%%" } } },
    { response: { ...good, response: { ...response, attestationObject: "a=b" } } },
    {
      response: {
        ...good,
        response: { ...response, attestationObject: b64(new Uint8Array([0xa1])) },
      },
    },
    {
      response: {
        ...good,
        response: { ...response, attestationObject: b64(new Uint8Array([0x9f, 0xff])) },
      },
    },
    { response: { ...good, response: { ...response, transports: "usb" } } },
    { response: good, name: 12 },
    { response: good, name: "x".repeat(101) },
    { response: good, extra: true },
  ];
  for (const body of bodies) {
    const started = performance.now();
    const answer = await post(browser, "/auth/passkey/register", body);
    assert.ok(performance.now() - started < 500, "answered quickly");
    await assertError(answer, 400, "invalid_request");
  }
  await assertError(
    await post(browser, "/auth/passkey/register", { response: big }),
    413,
    "invalid_request",
  );
  assert.deepEqual(await store.listPasskeys(ADA.sub), []);
  // The untouched response still registers: the challenge was not used up by the failures.
  assert.equal((await post(browser, "/auth/passkey/register", { response: good })).status, 201);
});

Deno.test("passkeys: malformed sign-in bodies are 400 access_denied (400 invalid_request for the body's shape)", async () => {
  const { auth, store } = passkeyAuth();
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const { authenticator } = await registerNew(browser);
  const fresh = browserFor(auth);
  const options = await signInOptions(fresh);
  const good = await authenticator.authenticate({ challenge: options.challenge as string });
  const response = good.response as Record<string, unknown>;
  for (
    const body of [
      { response: null },
      { response: "text" },
      { response: { ...good, id: "x".repeat(5000), rawId: "x".repeat(5000) } },
      { response: { ...good, id: "a b", rawId: "a b" } },
      { response: { ...good, response: { ...response, authenticatorData: "%%" } } },
      { response: { ...good, response: { ...response, signature: "=" } } },
      { response: { ...good, response: { ...response, signature: b64(new Uint8Array(8)) } } },
      {
        response: {
          ...good,
          response: { ...response, clientDataJSON: b64(new Uint8Array([0xff])) },
        },
      },
      { response: { ...good, response: { ...response, userHandle: 5 } } },
    ]
  ) {
    await assertError(await post(fresh, "/auth/passkey/signIn", body), 400, "access_denied");
  }
  await assertError(
    await post(fresh, "/auth/passkey/signIn", { response: good, redirectTo: 5 }),
    400,
    "invalid_request",
  );
  await assertError(
    await post(fresh, "/auth/passkey/signIn", { response: good, more: 1 }),
    400,
    "invalid_request",
  );
  await assertError(
    await post(fresh, "/auth/passkey/signIn", { response: big }),
    413,
    "invalid_request",
  );
  await assertError(
    await post(fresh, "/auth/passkey/signIn", {
      response: good,
      redirectTo: "https://evil.example/",
    }),
    400,
    "invalid_redirect_to",
  );
  // Nothing moved: the counter and last use are as registered, and the response still works.
  const stored = await store.getPasskey(authenticator.id);
  assert.equal(stored?.lastUsedAt, undefined);
  const ok = await post(fresh, "/auth/passkey/signIn", { response: good, redirectTo: "/home" });
  assert.equal(ok.status, 200);
});

Deno.test("passkeys: redirect=true with redirectTo answers 302 to it", async () => {
  const { auth } = passkeyAuth();
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const { authenticator } = await registerNew(browser);
  const fresh = browserFor(auth);
  const options = await signInOptions(fresh);
  const json = await authenticator.authenticate({ challenge: options.challenge as string });
  const response = await post(fresh, "/auth/passkey/signIn?redirect=true", {
    response: json,
    redirectTo: "/after",
  });
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("Location"), "/after");
});

Deno.test("passkeys: a store that fails or answers garbage fails closed with 503", async () => {
  const real = memoryStore();
  let mode: "ok" | "throw" | "garbage" | "hang" = "ok";
  const store: PasskeyStore = {
    savePasskey: (p) => real.savePasskey(p),
    getPasskey: (id) => {
      if (mode === "throw") return Promise.reject(new Error("down"));
      if (mode === "garbage") return Promise.resolve({ id } as never);
      if (mode === "hang") return new Promise(() => {});
      return real.getPasskey(id);
    },
    listPasskeys: (sub) => real.listPasskeys(sub),
    deletePasskey: (id) => real.deletePasskey(id),
    updatePasskey: (id, u) => real.updatePasskey(id, u),
  };
  const { auth, logs } = passkeyAuth({ store, config: { session: { storeTimeout: 50 } } });
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const { authenticator } = await registerNew(browser);
  for (const failure of ["throw", "garbage", "hang"] as const) {
    mode = failure;
    await assertError(
      await passkeySignIn(browserFor(auth), authenticator),
      503,
      "temporarily_unavailable",
    );
  }
  assert.ok(
    logs.some((e) => e.message === "session store failed" && e.details?.operation === "getPasskey"),
  );
});

Deno.test("passkeys: random and mutated bytes in every field are refused with 400, never a 5xx", async () => {
  const seed = Date.now() >>> 0;
  const random = prng(seed);
  const { auth, store } = passkeyAuth();
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const { authenticator } = await registerNew(browser);
  const options = await registerOptions(browser);
  const other = await createAuthenticator(-7);
  const good = await other.register({ challenge: options.challenge as string });
  const signIn = browserFor(auth);
  const signInOpts = await signInOptions(signIn);
  const assertion = await authenticator.authenticate({ challenge: signInOpts.challenge as string });
  const mutate = (text: string): string => {
    const bytes = fromB64(text);
    const kind = Math.floor(random() * 3);
    if (kind === 0 && bytes.length > 0) {
      bytes[Math.floor(random() * bytes.length)] ^= 1 << Math.floor(random() * 8);
    }
    if (kind === 1) return b64(bytes.subarray(0, Math.floor(random() * bytes.length)));
    if (kind === 2) return b64(crypto.getRandomValues(new Uint8Array(Math.floor(random() * 300))));
    return b64(bytes);
  };
  for (let i = 0; i < 150; i++) {
    const registration = structuredClone(good);
    const fields = registration.response as Record<string, string>;
    const field = ["attestationObject", "clientDataJSON"][i % 2];
    fields[field] = mutate(fields[field]);
    const answer = await post(browser, "/auth/passkey/register", { response: registration });
    assert.ok(answer.status === 400 || answer.status === 201, `seed ${seed}: ${answer.status}`);
    await answer.body?.cancel();
    const signed = structuredClone(assertion);
    const parts = signed.response as Record<string, string>;
    const part = ["authenticatorData", "clientDataJSON", "signature", "userHandle"][i % 4];
    parts[part] = mutate(parts[part]);
    const refused = await post(signIn, "/auth/passkey/signIn", { response: signed });
    assert.equal(refused.status, 400, `seed ${seed}: ${part}`);
    await refused.body?.cancel();
  }
  // At most the untouched key registered (a mutation may leave the response valid), nothing else.
  assert.ok((await store.listPasskeys(ADA.sub)).length <= 2);
});
