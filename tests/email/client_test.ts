// The browser client's email methods against the real handlers.
import assert from "node:assert/strict";
import { browserClient } from "../support/browser_client.ts";
import { ADA, emailAuth } from "./_helpers.ts";

Deno.test("client: signIn.email then verifyEmailCode signs in the asking browser", async () => {
  const { auth, outbox } = emailAuth();
  const { client, seen } = browserClient(auth.handlers.ALL);
  const asked = await client.signIn.email("ada@example.com", { redirectTo: "/home" });
  assert.deepEqual(asked, { data: { ok: true }, error: null });
  assert.deepEqual(JSON.parse(seen.at(-1)!.body!), {
    email: "ada@example.com",
    redirectTo: "/home",
  });
  const wrong = await client.verifyEmailCode(outbox.last().code === "000000" ? "111111" : "000000");
  assert.equal(wrong.error?.error, "invalid_grant");
  assert.equal(wrong.error?.status, 400);
  const signedIn = await client.verifyEmailCode(outbox.last().code!);
  assert.ok(signedIn.data && "user" in signedIn.data, "a session, no second step");
  assert.equal(signedIn.data.user.sub, ADA.sub);
  assert.equal(signedIn.data.user.emailVerified, true);
  assert.equal((await client.getSession())?.user.sub, ADA.sub);
});

Deno.test("client: signIn.email refuses an unsafe redirectTo before any request", async () => {
  const { auth } = emailAuth();
  const { client, seen } = browserClient(auth.handlers.ALL);
  const result = await client.signIn.email("ada@example.com", { redirectTo: "//evil.example" });
  assert.equal(result.error?.error, "invalid_redirect_to");
  assert.equal(seen.length, 0);
});

Deno.test("client: requestPasswordReset and resetPassword", async () => {
  const resets: { sub: string; email: string; password: string }[] = [];
  const { auth, outbox } = emailAuth({ resets });
  const { client } = browserClient(auth.handlers.ALL);
  assert.deepEqual(await client.requestPasswordReset("ada@example.com"), {
    data: { ok: true },
    error: null,
  });
  assert.deepEqual(await client.resetPassword(outbox.lastToken(), "a new password"), {
    data: { ok: true },
    error: null,
  });
  assert.equal(resets[0]?.password, "a new password");
  const again = await client.resetPassword(outbox.lastToken(), "another");
  assert.equal(again.error?.error, "invalid_grant");
});

Deno.test("client: verifyEmail and changeEmail need a session and send to the right address", async () => {
  const { auth, outbox } = emailAuth();
  const { client } = browserClient(auth.handlers.ALL);
  assert.equal((await client.verifyEmail()).error?.error, "invalid_session_token");
  await client.signIn.credentials({ username: "ada", password: "correct horse" });
  assert.deepEqual((await client.verifyEmail()).data, { ok: true });
  assert.equal(outbox.last().kind, "verify-email");
  assert.deepEqual((await client.changeEmail("ada2@example.com")).data, { ok: true });
  assert.equal(outbox.last().kind, "change-email");
  assert.equal(outbox.last().to, "ada2@example.com");
});
