// The passkey row of the two-factor table (docs/two-factor.md): a passkey sign-in with user
// verification is two factors by itself and makes the session at once; one without user
// verification (allowed by userVerification: "preferred") stops at the second step like any
// other first factor.
import assert from "node:assert/strict";
import { decodeBase32 } from "../../src/two_factor/base32.ts";
import { totpCode } from "../../src/two_factor/totp.ts";
import { FLAG } from "../webauthn/_authenticator.ts";
import {
  browserFor,
  passkeyAuth,
  passkeySignIn,
  passwordSignIn,
  post,
  registerNew,
} from "../passkeys/_helpers.ts";

const SESSION_COOKIE = "__Host-service-stack.session_token";
const TWO_FACTOR_COOKIE = "__Host-service-stack.two_factor";

async function enrolledWithPasskey() {
  const records = new Map<string, string | null>();
  const { auth } = passkeyAuth({
    passkeys: { userVerification: "preferred" },
    config: {
      twoFactor: {
        load: (sub: string) => records.get(sub) ?? null,
        save: (sub: string, value: string | null) => void records.set(sub, value),
      },
    },
  });
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  const { authenticator, response } = await registerNew(browser);
  assert.equal(response.status, 201);
  await response.body?.cancel();
  const started = await post(browser, "/auth/twoFactor/enroll");
  assert.equal(started.status, 200, await started.clone().text());
  const secret = decodeBase32((await started.json()).secret);
  const confirmed = await post(browser, "/auth/twoFactor/confirm", {
    code: await totpCode(secret, Date.now() / 1000),
  });
  assert.equal(confirmed.status, 200, await confirmed.clone().text());
  await confirmed.body?.cancel();
  return { auth, authenticator };
}

Deno.test("path: a passkey sign-in with user verification skips the second step", async () => {
  const { auth, authenticator } = await enrolledWithPasskey();
  const browser = browserFor(auth);
  const response = await passkeySignIn(browser, authenticator);
  assert.equal(response.status, 200, await response.clone().text());
  assert.ok("user" in await response.json());
  assert.ok(browser.cookies.has(SESSION_COOKIE));
  assert.equal(browser.cookies.has(TWO_FACTOR_COOKIE), false);
});

Deno.test("path: a passkey sign-in without user verification stops at the second step", async () => {
  const { auth, authenticator } = await enrolledWithPasskey();
  const browser = browserFor(auth);
  const response = await passkeySignIn(browser, authenticator, { flags: FLAG.UP });
  assert.equal(response.status, 200, await response.clone().text());
  assert.deepEqual(await response.json(), { twoFactorRequired: true });
  assert.equal(browser.cookies.has(SESSION_COOKIE), false);
  assert.ok(browser.cookies.has(TWO_FACTOR_COOKIE));
});
