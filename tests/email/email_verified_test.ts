// `emailVerified` from the app's own records: a user returned by a server hook may carry it,
// so a verified user stays verified across sign-ins; nothing a client sends can set it.
import assert from "node:assert/strict";
import { Outbox } from "./_helpers.ts";
import { ADA, assertError, Browser, makeAuth } from "../server/_helpers.ts";

async function sessionUser(browser: Browser): Promise<Record<string, unknown>> {
  const session = await (await browser.fetch("GET", "/auth/session")).json();
  return session.user;
}

Deno.test("emailVerified: a user from authorize with emailVerified: true stays verified across sign-ins", async () => {
  const auth = makeAuth({
    credentials: { authorize: () => ({ ...ADA, emailVerified: true, passwordHash: "x" }) },
  });
  for (let i = 0; i < 2; i++) {
    const browser = new Browser(auth.handlers.ALL);
    assert.equal((await browser.signIn()).status, 200);
    const user = await sessionUser(browser);
    assert.equal(user.emailVerified, true);
    assert.equal(user.passwordHash, undefined);
  }
});

Deno.test("emailVerified: callbacks.signIn may mark the app's verified address", async () => {
  const auth = makeAuth({
    callbacks: { signIn: ({ user }) => ({ ...user, emailVerified: true }) },
  });
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  assert.equal((await sessionUser(browser)).emailVerified, true);
});

Deno.test("emailVerified: email.findUser's record counts, through an email link too", async () => {
  const outbox = new Outbox();
  const auth = makeAuth({
    email: {
      send: outbox.send,
      findUser: () => ({ ...ADA, email: "ada@work.example", emailVerified: true }),
    },
  });
  const browser = new Browser(auth.handlers.ALL);
  await browser.fetch("POST", "/auth/signIn/email", {
    json: { email: "ada@example.com" },
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  const token = new URL(outbox.last().url).searchParams.get("token")!;
  await browser.fetch("POST", "/auth/callback/email", { json: { token } });
  const user = await sessionUser(browser);
  assert.equal(user.email, "ada@work.example");
  assert.equal(user.emailVerified, true);
});

Deno.test("emailVerified: only a literal true with an address counts", async () => {
  for (
    const record of [{ emailVerified: "true" }, { emailVerified: 1 }, {
      email: undefined,
      emailVerified: true,
    }]
  ) {
    const auth = makeAuth({
      credentials: { authorize: () => ({ ...ADA, ...record }) as unknown as typeof ADA },
    });
    const browser = new Browser(auth.handlers.ALL);
    await browser.signIn();
    assert.equal((await sessionUser(browser)).emailVerified, undefined, JSON.stringify(record));
  }
});

Deno.test("emailVerified: never from a client: sign-up's onCreateUser result and session updates", async () => {
  const auth = makeAuth({
    signUp: {
      // The hook echoes the client's body, as a careless one would.
      onCreateUser: (payload) => ({ sub: "new-user", ...payload }),
    },
  });
  const browser = new Browser(auth.handlers.ALL);
  const signedUp = await browser.fetch("POST", "/auth/signUp", {
    json: { name: "Mallory", email: "victim@example.com", emailVerified: true },
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  assert.equal(signedUp.status, 201, await signedUp.clone().text());
  assert.equal((await sessionUser(browser)).emailVerified, undefined);
  for (const method of ["PATCH", "POST"]) {
    await assertError(
      await browser.fetch(method, "/auth/session", {
        json: { emailVerified: true },
        headers: { "X-CSRF-Token": await browser.csrf() },
      }),
      400,
      "invalid_request",
    );
  }
  assert.equal((await sessionUser(browser)).emailVerified, undefined);
});
