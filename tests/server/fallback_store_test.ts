// Without session.store: one fallback store per process, shared by every instance in it (on the
// default clock): two createAuth instances count one credentials throttle and use each one-time
// value (here a passkey challenge) once between them. An instance with a clock of its own keeps
// the store of that clock.
import assert from "node:assert/strict";
import { type AuthConfig, createAuth, memoryStore } from "../../mod.ts";
import { assertError, Browser, SECRET } from "./_helpers.ts";
import {
  ADA,
  browserFor,
  passkeyAuth,
  passwordSignIn,
  post,
  registerNew,
} from "../passkeys/_helpers.ts";

/** An instance on the default clock (`Date.now`), as an app makes it: no clock option. */
function makeAuth(config: Partial<AuthConfig>) {
  return createAuth({ oauth: [], secret: SECRET, logger: false, env: {}, ...config } as AuthConfig);
}

/** A username no other test counts, with its own password check. */
function freshUser() {
  const username = `fallback-${crypto.randomUUID()}`;
  const authorize = (input: { username: string; password: string }) =>
    input.username === username && input.password === "right" ? { sub: username } : null;
  return { username, authorize };
}

async function attempt(handler: (request: Request) => Promise<Response>, username: string) {
  const browser = new Browser(handler);
  const token = await browser.csrf();
  return await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username, password: "wrong" },
    headers: { "X-CSRF-Token": token },
  });
}

Deno.test("without a store, two instances in one process share the credentials throttle", async () => {
  const { username, authorize } = freshUser();
  const one = makeAuth({ credentials: { authorize } });
  const two = makeAuth({ credentials: { authorize } });
  // Five failures between them: three on one instance, two on the other.
  for (const auth of [one, two, one, two, one]) {
    await assertError(await attempt(auth.handlers.ALL, username), 401, "access_denied");
  }
  // The sixth is refused on either, as on one instance.
  for (const auth of [two, one]) {
    const refused = await attempt(auth.handlers.ALL, username);
    assert.ok(refused.headers.get("retry-after"));
    await assertError(refused, 429, "temporarily_unavailable");
  }
  // A third instance made later in the process sees the same count.
  const three = makeAuth({ credentials: { authorize } });
  await assertError(await attempt(three.handlers.ALL, username), 429, "temporarily_unavailable");
});

Deno.test("without a store, an instance with its own clock keeps its own count", async () => {
  const { username, authorize } = freshUser();
  const shared = makeAuth({ credentials: { authorize } });
  for (let i = 0; i < 5; i++) await attempt(shared.handlers.ALL, username);
  await assertError(await attempt(shared.handlers.ALL, username), 429, "temporarily_unavailable");
  const clock = () => Date.now();
  const own = makeAuth({ credentials: { authorize }, clock });
  await assertError(await attempt(own.handlers.ALL, username), 401, "access_denied");
  // Two instances given that same clock share again.
  const sameClock = makeAuth({ credentials: { authorize }, clock });
  for (let i = 0; i < 4; i++) await attempt(sameClock.handlers.ALL, username);
  await assertError(await attempt(own.handlers.ALL, username), 429, "temporarily_unavailable");
});

Deno.test("without a store, a passkey sign-in replayed on another instance in the process is refused", async () => {
  // One app, two instances (as two modules, or a dev server's reload, would make): the same secret
  // and passkey table, no session.store.
  const passkeys = memoryStore();
  // The test helpers give each instance a clock of its own; these two share one, as two instances
  // on the default clock do.
  const clock = () => Date.now();
  const one = passkeyAuth({ store: passkeys, config: { clock } });
  const two = passkeyAuth({ store: passkeys, config: { clock } });
  const browser = browserFor(one.auth);
  await passwordSignIn(browser);
  // A counter-less authenticator (counter 0, as synced passkeys are): only the challenge's
  // one-time mark stops a replay.
  const { authenticator } = await registerNew(browser, -7, { counter: 0 });
  assert.equal(authenticator.counter, 0);

  const signer = browserFor(one.auth);
  const optionsResponse = await post(signer, "/auth/passkey/signIn/options", {});
  const options = await optionsResponse.json();
  const token = await signer.csrf();
  const cookies = signer.cookieHeader();
  const json = await authenticator.authenticate({ challenge: options.challenge });
  const signedIn = await signer.fetch("POST", "/auth/passkey/signIn", {
    json: { response: json },
    headers: { "X-CSRF-Token": token },
  });
  assert.equal(signedIn.status, 200);
  assert.equal((await signedIn.json()).user.sub, ADA.sub);

  // The same request (cookies, token, body) sent again to the other instance.
  const replayer = browserFor(two.auth);
  const replayed = await replayer.fetch("POST", "/auth/passkey/signIn", {
    json: { response: json },
    headers: { "X-CSRF-Token": token, Cookie: cookies },
  });
  await assertError(replayed, 400, "access_denied");
  assert.ok(two.logs.some((entry) => entry.details?.reason === "challenge used"));
  assert.equal(
    replayed.headers.getSetCookie().some((line) => line.includes("session_token=ey")),
    false,
  );
});
