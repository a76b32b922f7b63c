// What POST /twoFactor/verify costs in Web Crypto calls (warm keys), and what the gate adds to a
// first factor of an enrolled user.
import assert from "node:assert/strict";
import { countSubtle } from "../jose/_subtle.ts";
import { codeAt, enroll, nextStep, verify, world } from "./_world.ts";

function total(counts: Record<string, number>): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

Deno.test("cost: POST /twoFactor/verify and the gate, in Web Crypto calls", async () => {
  const w = world({ config: { logger: false } });
  const { secret, backupCodes } = await enroll(w);
  // Warm every derived key: the counts are for a running server.
  const warm = w.browser();
  await warm.signIn();
  await verify(warm, { code: await codeAt(w, secret) });
  nextStep(w);

  const browser = w.browser();
  const csrf = await browser.csrf();
  const signIn = () =>
    browser.fetch("POST", "/auth/signIn/credentials", {
      json: { username: "ada", password: "correct horse" },
      headers: { "X-CSRF-Token": csrf },
    });
  const gate = await countSubtle(signIn);
  // The gate: factor open 1 (AES-GCM) and pending seal 1 (AES-GCM) instead of a session's 1;
  // the CSRF check and the throttle key run in JavaScript.
  assert.equal(total(gate), 2, JSON.stringify(gate));

  const token = await browser.csrf();
  const code = await codeAt(w, secret);
  const verified = await countSubtle(() =>
    browser.fetch("POST", "/auth/twoFactor/verify", {
      json: { code },
      headers: { "X-CSRF-Token": token },
    })
  );
  // Pending open 1, factor open 1, session seal 1; the CSRF check, the TOTP HMAC-SHA-1 and the
  // new session's CSRF token run in JavaScript.
  assert.equal(total(verified), 3, JSON.stringify(verified));

  const other = w.browser();
  await other.signIn();
  const token2 = await other.csrf();
  const backup = await countSubtle(() =>
    other.fetch("POST", "/auth/twoFactor/verify", {
      json: { backupCode: backupCodes[0] },
      headers: { "X-CSRF-Token": token2 },
    })
  );
  // As above, and the factor sealed again without the used code 1 (its hash runs in JavaScript).
  assert.equal(total(backup), 4, JSON.stringify(backup));
  console.log(
    `Web Crypto calls: gate ${total(gate)}, POST /twoFactor/verify code ${total(verified)} ${
      JSON.stringify(verified)
    }, backup code ${total(backup)} ${JSON.stringify(backup)}`,
  );
});
