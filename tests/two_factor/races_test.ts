// Two-factor under races: backup codes used at the same moment never come back, and TOTP
// codes only move forward, also across instances sharing a store.
import assert from "node:assert/strict";
import { memoryStore } from "../../mod.ts";
import {
  ADA,
  assertPending,
  type Browser,
  Clock,
  codeAt,
  enroll,
  nextStep,
  verify,
  type World,
  world,
} from "./_world.ts";

/** A record table whose `load` and `save` take 5-20 ms, as a database does. */
function slowTable() {
  const rows = new Map<string, string | null>();
  const wait = () => new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 15));
  return {
    rows,
    load: async (sub: string) => {
      await wait();
      return rows.get(sub) ?? null;
    },
    save: async (sub: string, value: string | null) => {
      await wait();
      rows.set(sub, value);
    },
  };
}

/** A browser that passed the password and waits for its second step. */
async function pendingBrowser(w: World): Promise<Browser> {
  const browser = w.browser();
  await assertPending(browser, await browser.signIn());
  return browser;
}

for (const count of [2, 10]) {
  Deno.test(`${count} backup codes used at the same moment all stay used after their marks expire`, async () => {
    const table = slowTable();
    const w = world({ load: table.load, save: table.save });
    const { backupCodes } = await enroll(w);
    const browsers: Browser[] = [];
    // One after the other: the credentials throttle counts concurrent sign-ins before authorize.
    for (let i = 0; i < count; i++) browsers.push(await pendingBrowser(w));
    const answers = await Promise.all(
      browsers.map((browser, i) => verify(browser, { backupCode: backupCodes[i] })),
    );
    for (const answer of answers) assert.equal(answer.status, 200, await answer.text());
    // Past the ten-minute marks (and the per-user try window): only the saved factor remembers.
    w.clock.advance(16 * 60);
    for (const code of backupCodes.slice(0, count)) {
      const again = await verify(await pendingBrowser(w), { backupCode: code });
      assert.equal(again.status, 400, `the used code ${code} signed in again`);
      assert.equal((await again.json()).error, "invalid_grant");
    }
    // The codes nobody used still work.
    if (count < backupCodes.length) {
      const unused = await verify(await pendingBrowser(w), { backupCode: backupCodes[count] });
      assert.equal(unused.status, 200);
    }
  });
}

Deno.test("a TOTP code of an earlier step is refused once a later step's code was accepted", async () => {
  const w = world();
  const { secret } = await enroll(w);
  nextStep(w);
  const first = await verify(await pendingBrowser(w), { code: await codeAt(w, secret) });
  assert.equal(first.status, 200);
  // The previous step's code is still inside the window, but time moved past it.
  const older = await verify(await pendingBrowser(w), { code: await codeAt(w, secret, -1) });
  assert.equal(older.status, 400);
  assert.deepEqual(await older.json(), {
    error: "invalid_grant",
    error_description: "That code is not right. Please try again.",
  });
  // The next step's code moves forward; then the current one is behind it.
  const next = await verify(await pendingBrowser(w), { code: await codeAt(w, secret, 1) });
  assert.equal(next.status, 200);
  const current = await verify(await pendingBrowser(w), { code: await codeAt(w, secret) });
  assert.equal(current.status, 400);
});

Deno.test("the same TOTP code again says it was just used", async () => {
  const w = world();
  const { secret } = await enroll(w);
  const code = await codeAt(w, secret);
  assert.equal((await verify(await pendingBrowser(w), { code })).status, 200);
  const again = await verify(await pendingBrowser(w), { code });
  assert.equal(again.status, 400);
  assert.deepEqual(await again.json(), {
    error: "invalid_grant",
    error_description: "That code was just used. Wait for the next one.",
  });
  nextStep(w);
  const fresh = await verify(await pendingBrowser(w), { code: await codeAt(w, secret) });
  assert.equal(fresh.status, 200);
});

Deno.test("TOTP codes move forward across instances sharing a store", async () => {
  const store = memoryStore();
  const clock = new Clock(Math.floor(Date.now() / 30_000) * 30_000 + 5_000);
  const rows = new Map<string, string | null>();
  const shared = {
    store,
    clock,
    load: (sub: string) => rows.get(sub) ?? null,
    save: (sub: string, value: string | null) => void rows.set(sub, value),
  };
  const one = world(shared);
  const two = world(shared);
  const { secret } = await enroll(one);
  nextStep(one);
  assert.equal(
    (await verify(await pendingBrowser(one), { code: await codeAt(one, secret) })).status,
    200,
  );
  const older = await verify(await pendingBrowser(two), { code: await codeAt(two, secret, -1) });
  assert.equal(older.status, 400);
  const same = await verify(await pendingBrowser(two), { code: await codeAt(two, secret) });
  assert.equal(
    (await same.json()).error_description,
    "That code was just used. Wait for the next one.",
  );
});

Deno.test("a password reset ends a pending second step: the old password cannot finish", async () => {
  const w = world({
    config: {
      credentials: {
        authorize: ({ username, password }) =>
          username === "ada" && password === "correct horse" ? ADA : null,
        resetPassword: () => {},
      },
    },
  });
  const { secret } = await enroll(w);
  const attacker = await pendingBrowser(w);
  // The owner resets the password by email while the attacker waits at the code step.
  const owner = w.browser();
  const asked = await owner.fetch("POST", "/auth/password/forgot", {
    json: { email: ADA.email },
    headers: { "X-CSRF-Token": await owner.csrf() },
  });
  assert.equal(asked.status, 200);
  const token = new URL(w.outbox.last().url).searchParams.get("token")!;
  const reset = await owner.fetch("POST", "/auth/password/reset", {
    json: { token, password: "a new password" },
  });
  assert.equal(reset.status, 200);
  const finished = await verify(attacker, { code: await codeAt(w, secret) });
  assert.equal(finished.status, 400);
  assert.equal((await finished.json()).error, "invalid_grant");
  assert.equal(attacker.cookies.has("service-stack.session_token"), false);
  // A sign-in begun after the reset finishes.
  const after = await verify(await pendingBrowser(w), { code: await codeAt(w, secret) });
  assert.equal(after.status, 200);
});
