// A reset ends what was issued before it; verification and change links are bound to the
// address they prove; links are never built from a client's Host; links stay short.
import assert from "node:assert/strict";
import type { EmailMessage, LogEntry } from "../../mod.ts";
import { memoryStore } from "../../mod.ts";
import { assertError, Clock, makeAuth } from "../server/_helpers.ts";
import { ADA, askReset, askSignIn, Browser, emailAuth, Outbox } from "./_helpers.ts";

function tokenOf(message: EmailMessage): string {
  return new URL(message.url).searchParams.get("token")!;
}

async function useReset(browser: Browser, token: string, password = "new password") {
  return await browser.fetch("POST", "/auth/password/reset", { json: { token, password } });
}

async function postToken(browser: Browser, token: string): Promise<Response> {
  return await browser.fetch("POST", "/auth/callback/email", { json: { token } });
}

async function postCode(browser: Browser, code: string): Promise<Response> {
  return await browser.fetch("POST", "/auth/callback/email", { json: { code } });
}

Deno.test("reset: an older reset link is refused once a newer one was used", async () => {
  const { auth, outbox, resets } = emailAuth();
  const browser = new Browser(auth.handlers.ALL);
  await askReset(browser, "ada@example.com");
  const older = tokenOf(outbox.last());
  await askReset(browser, "ada@example.com");
  const newer = tokenOf(outbox.last());
  assert.equal((await useReset(browser, newer)).status, 200);
  await assertError(await useReset(browser, older, "attacker"), 400, "invalid_grant");
  assert.deepEqual(resets.map((reset) => reset.password), ["new password"]);
});

Deno.test("reset: email sign-in links and codes sent before it stop working; new ones work", async () => {
  const clock = new Clock();
  const { auth, outbox } = emailAuth({ config: { clock: clock.fn } });
  const asker = new Browser(auth.handlers.ALL);
  await askSignIn(asker, "ada@example.com");
  const code = outbox.last().code!;
  const other = new Browser(auth.handlers.ALL);
  await askSignIn(other, "ada@example.com");
  const link = tokenOf(outbox.last());
  const browser = new Browser(auth.handlers.ALL);
  const asked = await askReset(browser, "ada@example.com");
  assert.equal(asked.status, 200);
  assert.equal((await useReset(browser, tokenOf(outbox.last()))).status, 200);
  await assertError(await postCode(asker, code), 400, "invalid_grant");
  await assertError(await postToken(new Browser(auth.handlers.ALL), link), 400, "invalid_grant");
  // After the reset (and past the message limit's window), a new link signs in.
  clock.advance(16 * 60);
  const later = new Browser(auth.handlers.ALL);
  await askSignIn(later, "ada@example.com");
  const session = await postToken(later, tokenOf(outbox.last()));
  assert.equal(session.status, 200, await session.clone().text());
  assert.equal((await session.json()).user.sub, ADA.sub);
});

Deno.test("reset: holds on every instance sharing the store", async () => {
  const store = memoryStore();
  const outbox = new Outbox();
  const one = emailAuth({ store, outbox }).auth;
  const two = emailAuth({ store, outbox }).auth;
  await askReset(new Browser(one.handlers.ALL), "ada@example.com");
  const older = tokenOf(outbox.last());
  await askSignIn(new Browser(one.handlers.ALL), "ada@example.com");
  const signInLink = tokenOf(outbox.last());
  await askReset(new Browser(two.handlers.ALL), "ada@example.com");
  assert.equal((await useReset(new Browser(two.handlers.ALL), tokenOf(outbox.last()))).status, 200);
  await assertError(await useReset(new Browser(one.handlers.ALL), older), 400, "invalid_grant");
  await assertError(
    await postToken(new Browser(one.handlers.ALL), signInLink),
    400,
    "invalid_grant",
  );
});

Deno.test("verification: a stale link is refused once the address changed, and onVerified is not called", async () => {
  const owner = new Map([["ada@example.com", ADA.sub]]);
  const verified: unknown[] = [];
  const outbox = new Outbox();
  const auth = makeAuth({
    email: {
      send: outbox.send,
      findUser: (email: string) => {
        const sub = owner.get(email.toLowerCase());
        return sub === undefined ? null : { sub, email };
      },
      onVerified: (event) => void verified.push(event),
      onChanged: ({ from, to, sub }) => {
        owner.delete(from.toLowerCase());
        owner.set(to.toLowerCase(), sub);
      },
    },
  });
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  const verify = await browser.fetch("POST", "/auth/email/verify", {
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  assert.equal(verify.status, 200);
  const stale = tokenOf(outbox.last());
  const change = await browser.fetch("POST", "/auth/email/change", {
    json: { email: "ada.new@example.com" },
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  assert.equal(change.status, 200);
  assert.equal((await postToken(browser, tokenOf(outbox.last()))).status, 200);
  assert.equal(owner.get("ada.new@example.com"), ADA.sub);
  await assertError(await postToken(browser, stale), 400, "invalid_grant");
  assert.deepEqual(verified, []);
  const session = await (await browser.fetch("GET", "/auth/session")).json();
  assert.equal(session.user.email, "ada.new@example.com");
});

Deno.test("verification: a link for an address now held by another account verifies nothing", async () => {
  const owner = new Map([["ada@example.com", ADA.sub]]);
  const verified: unknown[] = [];
  const outbox = new Outbox();
  const auth = makeAuth({
    email: {
      send: outbox.send,
      findUser: (email: string) => {
        const sub = owner.get(email.toLowerCase());
        return sub === undefined ? null : { sub, email };
      },
      onVerified: (event) => void verified.push(event),
    },
  });
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  await browser.fetch("POST", "/auth/email/verify", {
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  owner.set("ada@example.com", "someone-else");
  await assertError(await postToken(browser, tokenOf(outbox.last())), 400, "invalid_grant");
  assert.deepEqual(verified, []);
});

Deno.test("change: a change link is refused once the account's address moved on", async () => {
  const owner = new Map([["ada@example.com", ADA.sub]]);
  const changes: unknown[] = [];
  const outbox = new Outbox();
  const auth = makeAuth({
    email: {
      send: outbox.send,
      findUser: (email: string) => {
        const sub = owner.get(email.toLowerCase());
        return sub === undefined ? null : { sub, email };
      },
      onChanged: (event) => void changes.push(event),
    },
  });
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  await browser.fetch("POST", "/auth/email/change", {
    json: { email: "ada.new@example.com" },
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  // The app moved the address by other means meanwhile.
  owner.delete("ada@example.com");
  owner.set("ada.other@example.com", ADA.sub);
  await assertError(await postToken(browser, tokenOf(outbox.last())), 400, "invalid_grant");
  assert.deepEqual(changes, []);
});

function loggedAuth(config: Record<string, unknown> = {}) {
  const logs: LogEntry[] = [];
  const outbox = new Outbox();
  const auth = makeAuth({
    logger: { level: "debug", log: (entry: LogEntry) => void logs.push(entry) },
    email: {
      send: outbox.send,
      findUser: (email: string) => email === "ada@example.com" ? ADA : null,
    },
    credentials: {
      authorize: () => ADA,
      resetPassword: () => {},
    },
    ...config,
  });
  return { auth, logs, outbox };
}

Deno.test("links: without baseURL, a request from an untrusted Host sends nothing and is a logged 500", async () => {
  const { auth, logs, outbox } = loggedAuth();
  const browser = new Browser(auth.handlers.ALL, "https://attacker.example");
  for (const path of ["/auth/signIn/email", "/auth/password/forgot"]) {
    const response = await browser.fetch("POST", path, {
      json: { email: "ada@example.com" },
      headers: { "X-CSRF-Token": await browser.csrf() },
    });
    await assertError(response, 500, "server_error");
  }
  const signedIn = new Browser(auth.handlers.ALL, "https://attacker.example");
  await signedIn.signIn();
  await assertError(
    await signedIn.fetch("POST", "/auth/email/verify", {
      headers: { "X-CSRF-Token": await signedIn.csrf() },
    }),
    500,
    "server_error",
  );
  assert.deepEqual(outbox.messages, []);
  assert.ok(
    logs.some((entry) => entry.level === "error" && entry.message.includes("baseURL")),
    "no log line names baseURL",
  );
});

Deno.test("links: built for a trusted origin or baseURL, never from the Host header", async () => {
  const trusted = loggedAuth({ trustedOrigins: ["https://app.example.com"] });
  const browser = new Browser(trusted.auth.handlers.ALL, "https://app.example.com");
  const asked = await browser.fetch("POST", "/auth/password/forgot", {
    json: { email: "ada@example.com" },
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  assert.equal(asked.status, 200);
  assert.ok(trusted.outbox.last().url.startsWith("https://app.example.com/auth/password/reset?"));
  const based = loggedAuth({ baseURL: "https://auth.example.com" });
  const elsewhere = new Browser(based.auth.handlers.ALL, "https://attacker.example");
  const sent = await elsewhere.fetch("POST", "/auth/signIn/email", {
    json: { email: "ada@example.com" },
    headers: { "X-CSRF-Token": await elsewhere.csrf() },
  });
  assert.equal(sent.status, 200);
  assert.ok(based.outbox.last().url.startsWith("https://auth.example.com/auth/callback/email?"));
});

/** The bytes a base64url string would decode to, as Latin-1 text (whole quads only). */
function readable(text: string): string {
  const quads = text.slice(0, text.length - (text.length % 4));
  return atob(quads.replace(/-/g, "+").replace(/_/g, "/"));
}

const LONG = "firstname.middlename.lastname@mail.example-company.com"; // 54 characters
const LONG_NEW = "firstname.lastname.newaddress@mail.example-company.org";
const LONG_TARGET = "/account/settings/notifications?tab=email&from=sign-in-link"; // 59

Deno.test("links: every kind of email link is at most 200 characters with a long address and redirectTo", async () => {
  const user = { sub: "7f9c2ba4-e88f-11ec-8ea0-0242ac120002", name: "Ada", email: LONG };
  const outbox = new Outbox();
  const owner = new Map([[LONG, user.sub]]);
  const auth = makeAuth({
    baseURL: "https://app.example.com",
    email: {
      send: outbox.send,
      findUser: (email: string) => owner.has(email) ? { ...user, email } : null,
    },
    credentials: { authorize: () => user, resetPassword: () => {} },
  });
  const browser = new Browser(auth.handlers.ALL, "https://app.example.com");
  await browser.fetch("POST", "/auth/signIn/email", {
    json: { email: LONG, redirectTo: LONG_TARGET },
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  const signIn = outbox.last();
  await browser.fetch("POST", "/auth/password/forgot", {
    json: { email: LONG },
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  const reset = outbox.last();
  await browser.signIn();
  await browser.fetch("POST", "/auth/email/verify", {
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  const verify = outbox.last();
  await browser.fetch("POST", "/auth/email/change", {
    json: { email: LONG_NEW },
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  const change = outbox.last();
  const kinds = [signIn, reset, verify, change].map((message) => message.kind);
  assert.deepEqual(kinds, ["sign-in", "reset-password", "verify-email", "change-email"]);
  for (const message of [signIn, reset, verify, change]) {
    assert.ok(
      message.url.length <= 200,
      `${message.kind} link is ${message.url.length} characters: ${message.url}`,
    );
    // Sealed: neither the address nor the target can be read from the link.
    const token = tokenOf(message);
    for (let start = 0; start < 4; start++) {
      const decoded = readable(token.slice(start));
      assert.ok(!decoded.includes("firstname") && !decoded.includes("account"), message.kind);
    }
  }
});

Deno.test("links: a redirectTo left out of a long link still lands the asking browser there", async () => {
  const outbox = new Outbox();
  const auth = makeAuth({
    email: {
      send: outbox.send,
      findUser: (email: string) => email === LONG ? { ...ADA, email } : null,
    },
  });
  const browser = new Browser(auth.handlers.ALL);
  await browser.fetch("POST", "/auth/signIn/email", {
    json: { email: LONG, redirectTo: LONG_TARGET },
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  const token = tokenOf(outbox.last());
  assert.ok(outbox.last().url.length <= 200);
  const landed = await browser.fetch("POST", "/auth/callback/email", { form: { token } });
  assert.equal(landed.status, 302);
  assert.equal(
    new URL(landed.headers.get("Location")!, "http://localhost:8000").pathname +
      new URL(landed.headers.get("Location")!, "http://localhost:8000").search,
    LONG_TARGET,
  );
});

Deno.test("links: a short redirectTo rides in the link, so another browser lands there too", async () => {
  const { auth, outbox } = emailAuth();
  await askSignIn(new Browser(auth.handlers.ALL), "ada@example.com", { redirectTo: "/inbox" });
  const landed = await new Browser(auth.handlers.ALL).fetch("POST", "/auth/callback/email", {
    form: { token: tokenOf(outbox.last()) },
  });
  assert.equal(landed.status, 302);
  assert.match(landed.headers.get("Location")!, /\/inbox$/);
});
