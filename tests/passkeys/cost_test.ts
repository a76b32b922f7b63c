// What POST /passkey/signIn costs in Web Crypto calls once warm, and that opening the challenge
// beside the signature check changes no answer.
import assert from "node:assert/strict";
import { countSubtle } from "../jose/_subtle.ts";
import { createAuthenticator } from "../webauthn/_authenticator.ts";
import {
  browserFor,
  passkeyAuth,
  passkeySignIn,
  passwordSignIn,
  post,
  registerNew,
  signInOptions,
} from "./_helpers.ts";

for (const alg of [-7, -8] as const) {
  Deno.test(`cost ${alg}: POST /passkey/signIn makes 3 Web Crypto calls: the challenge opened beside the verify, then the session seal`, async () => {
    const { auth } = passkeyAuth();
    const owner = browserFor(auth);
    await passwordSignIn(owner);
    const { authenticator } = await registerNew(owner, alg);
    // Warm every derived key and the imported credential key: the counts are for a running server.
    const warm = browserFor(auth);
    assert.equal((await passkeySignIn(warm, authenticator)).status, 200);

    const browser = browserFor(auth);
    const options = await signInOptions(browser);
    const json = await authenticator.authenticate({ challenge: options.challenge as string });
    const csrf = await browser.csrf();
    let status = 0;
    const counts = await countSubtle(async () => {
      const response = await browser.fetch("POST", "/auth/passkey/signIn", {
        json: { response: json },
        headers: { "X-CSRF-Token": csrf },
      });
      status = response.status;
      await response.body?.cancel();
    });
    assert.equal(status, 200);
    // The CSRF check, the client data hash, the session's inner HS256 and the new CSRF token
    // run in JavaScript.
    assert.deepEqual(counts, { decrypt: 1, verify: 1, encrypt: 1 });
  });
}

Deno.test("a sign-in without its challenge cookie is refused for that reason, whatever else is wrong", async () => {
  const { auth, logs } = passkeyAuth();
  const owner = browserFor(auth);
  await passwordSignIn(owner);
  const { authenticator } = await registerNew(owner);
  const stranger = await createAuthenticator(-7);
  for (const signer of [authenticator, stranger]) {
    const browser = browserFor(auth);
    // The options of another browser: this one holds no challenge cookie.
    const options = await signInOptions(browserFor(auth));
    const json = await signer.authenticate({ challenge: options.challenge as string });
    const response = await post(browser, "/auth/passkey/signIn", { response: json });
    assert.equal(response.status, 400);
    assert.equal((await response.json()).error, "access_denied");
    assert.equal(logs.at(-1)?.details?.reason, "no challenge");
    assert.ok(![...browser.cookies.keys()].some((name) => name.includes("session_token")));
  }
});

Deno.test("a wrong challenge is refused while the signature is still being checked, and nothing is left pending", async () => {
  const { auth, logs } = passkeyAuth();
  const owner = browserFor(auth);
  await passwordSignIn(owner);
  const { authenticator } = await registerNew(owner);
  const browser = browserFor(auth);
  await signInOptions(browser);
  // Signed over another challenge, and with a broken signature: the challenge decides the reason.
  const other = await signInOptions(browserFor(auth));
  const json = await authenticator.authenticate({
    challenge: other.challenge as string,
    signature: () => new Uint8Array([0x30, 0x02, 0x01]),
  });
  const response = await post(browser, "/auth/passkey/signIn", { response: json });
  assert.equal(response.status, 400);
  assert.equal(logs.at(-1)?.details?.reason, "challenge");
});

Deno.test("no challenge cookie and a response that fails before its challenge is read: a 400, nothing left unhandled", async () => {
  const { auth, logs } = passkeyAuth();
  const owner = browserFor(auth);
  await passwordSignIn(owner);
  const { authenticator } = await registerNew(owner);
  const browser = browserFor(auth);
  const options = await signInOptions(browserFor(auth));
  const json = await authenticator.authenticate({ challenge: options.challenge as string });
  // The stored credential's id, with client data that is not JSON: refused before the challenge.
  const broken = {
    ...json,
    response: { ...(json.response as Record<string, unknown>), clientDataJSON: "bm90IGpzb24" },
  };
  const response = await post(browser, "/auth/passkey/signIn", { response: broken });
  assert.equal(response.status, 400);
  assert.equal(logs.at(-1)?.details?.reason, "no challenge");
  // A rejection nobody handled would fail this test file; give it the turns to surface.
  await new Promise((resolve) => setTimeout(resolve, 20));
});
