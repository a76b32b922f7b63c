// The browser client's two-factor methods against the real handlers: enroll, confirm, the
// second step after signIn.credentials and verifyEmailCode, disable.
import assert from "node:assert/strict";
import { stubLocation } from "../client/fake_auth_server.ts";
import { browserClient } from "../support/browser_client.ts";
import { ADA, codeAt, nextStep, ORIGIN, world } from "./_world.ts";

Deno.test("client: enroll, confirm, then signIn.credentials resolves twoFactorRequired and verify signs in", async () => {
  const w = world();
  const first = browserClient(w.auth.handlers.ALL, ORIGIN).client;
  const signedIn = await first.signIn.credentials({ username: "ada", password: "correct horse" });
  assert.equal((signedIn.data as { user: { sub: string } }).user.sub, ADA.sub);
  const enrolled = await first.twoFactor.enroll();
  assert.ok(enrolled.data);
  assert.match(enrolled.data.uri, /^otpauth:\/\/totp\//);
  const confirmed = await first.twoFactor.confirm(await codeAt(w, enrolled.data.secret));
  assert.equal(confirmed.data?.backupCodes.length, 10);
  nextStep(w);

  const { client, seen } = browserClient(w.auth.handlers.ALL, ORIGIN);
  const pending = await client.signIn.credentials({ username: "ada", password: "correct horse" });
  assert.deepEqual(pending, { data: { twoFactorRequired: true }, error: null });
  assert.equal(await client.getSession(), null);
  const wrong = await client.twoFactor.verify({ code: "000000" });
  assert.equal(wrong.error?.error, "invalid_grant");
  const done = await client.twoFactor.verify({ code: await codeAt(w, enrolled.data.secret) });
  assert.equal(done.data?.user.sub, ADA.sub);
  assert.deepEqual(JSON.parse(seen.at(-1)!.body!), {
    code: await codeAt(w, enrolled.data.secret),
  });
  assert.equal((await client.getSession())?.user.sub, ADA.sub);

  const backup = browserClient(w.auth.handlers.ALL, ORIGIN).client;
  await backup.signIn.credentials({ username: "ada", password: "correct horse" });
  const withBackup = await backup.twoFactor.verify({ backupCode: confirmed.data!.backupCodes[0] });
  assert.equal(withBackup.data?.user.sub, ADA.sub);

  nextStep(w);
  const off = await client.twoFactor.disable(await codeAt(w, enrolled.data.secret));
  assert.deepEqual(off, { data: { ok: true }, error: null });
  const direct = browserClient(w.auth.handlers.ALL, ORIGIN).client;
  const session = await direct.signIn.credentials({ username: "ada", password: "correct horse" });
  assert.equal((session.data as { user: { sub: string } }).user.sub, ADA.sub);
});

Deno.test("client: verifyEmailCode resolves twoFactorRequired for an enrolled user", async () => {
  const w = world();
  const first = browserClient(w.auth.handlers.ALL, ORIGIN).client;
  await first.signIn.credentials({ username: "ada", password: "correct horse" });
  const { data } = await first.twoFactor.enroll();
  await first.twoFactor.confirm(await codeAt(w, data!.secret));
  nextStep(w);
  const { client } = browserClient(w.auth.handlers.ALL, ORIGIN);
  await client.signIn.email(ADA.email!);
  const pending = await client.verifyEmailCode(w.outbox.last().code!);
  assert.deepEqual(pending, { data: { twoFactorRequired: true }, error: null });
  const done = await client.twoFactor.verify({ code: await codeAt(w, data!.secret) });
  assert.equal(done.data?.user.sub, ADA.sub);
});

Deno.test("client: a pending second step does not navigate to redirectTo; verify does", async () => {
  const w = world();
  const first = browserClient(w.auth.handlers.ALL, ORIGIN).client;
  await first.signIn.credentials({ username: "ada", password: "correct horse" });
  const { data } = await first.twoFactor.enroll();
  await first.twoFactor.confirm(await codeAt(w, data!.secret));
  nextStep(w);
  const location = stubLocation();
  try {
    const { client } = browserClient(w.auth.handlers.ALL, ORIGIN);
    const pending = await client.signIn.credentials({
      username: "ada",
      password: "correct horse",
      redirectTo: "/home",
    });
    assert.deepEqual(pending.data, { twoFactorRequired: true });
    assert.deepEqual(location.assigned, []);
    await client.twoFactor.verify({ code: await codeAt(w, data!.secret) }, { redirectTo: "/home" });
    assert.deepEqual(location.assigned, ["/home"]);
  } finally {
    location.restore();
  }
});
