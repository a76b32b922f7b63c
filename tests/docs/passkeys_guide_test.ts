/**
 * The passkey guide (docs/passkeys.md) runs as written: its module is
 * examples/passkeys/auth.ts byte for byte (docs_test.ts checks that),
 * imported here with the environment the guide names and its `db` filled. A
 * user signs in with a password, registers a passkey (a software
 * authenticator), lists it, signs in with it in a fresh browser, and deletes
 * it (DELETE, which the Next.js route exports too).
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  browserFor,
  ORIGIN,
  passkeySignIn,
  passwordSignIn,
  registerNew,
} from "../passkeys/_helpers.ts";

Deno.test("the passkey guide's module runs as written: register, list, sign in, delete", async () => {
  const env = { AUTH_SECRET: "passkey-guide-secret-0123456789-abcdefgh", AUTH_URL: ORIGIN };
  for (const [name, value] of Object.entries(env)) Deno.env.set(name, value);
  try {
    const { auth, db } = await import("../../examples/passkeys/auth.ts");
    const ada = await db.insert("ada", "Ada", "correct horse");

    const browser = browserFor(auth);
    await passwordSignIn(browser, "ada");
    const { authenticator, response } = await registerNew(browser);
    assert.equal(response.status, 201, await response.clone().text());
    await response.body?.cancel();
    const listed = await browser.fetch("GET", "/auth/passkeys");
    const { passkeys } = await listed.json();
    assert.equal(passkeys.length, 1);

    const fresh = browserFor(auth);
    const signedIn = await passkeySignIn(fresh, authenticator);
    assert.equal(signedIn.status, 200, await signedIn.clone().text());
    assert.deepEqual((await signedIn.json()).user, { sub: ada.sub, name: "Ada" });

    const token = await fresh.csrf();
    const deleted = await fresh.fetch("DELETE", `/auth/passkeys/${passkeys[0].id}`, {
      headers: { "X-CSRF-Token": token },
    });
    assert.equal(deleted.status, 204);
    assert.deepEqual(await auth.api.listPasskeys(ada.sub), []);
  } finally {
    for (const name of Object.keys(env)) Deno.env.delete(name);
  }
});
