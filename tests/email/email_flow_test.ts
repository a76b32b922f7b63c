// The email flows through the handlers: sign-in by link and by code, verification, change of
// address and password reset, with their refusals.
import assert from "node:assert/strict";
import { memoryStore } from "../../mod.ts";
import { assertError, Clock, makeAuth, setCookieValue } from "../server/_helpers.ts";
import { ADA, askReset, askSignIn, Browser, emailAuth } from "./_helpers.ts";

const FLOW_COOKIE = "service-stack.email_flow";

async function postToken(browser: Browser, token: string, form = false): Promise<Response> {
  return form
    ? await browser.fetch("POST", "/auth/callback/email", { form: { token } })
    : await browser.fetch("POST", "/auth/callback/email", { json: { token } });
}

Deno.test("a known address gets a sign-in link and code; the link signs in once", async () => {
  const { auth, outbox } = emailAuth();
  const asker = new Browser(auth.handlers.ALL);
  const response = await askSignIn(asker, "ada@example.com");
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { ok: true });
  const message = outbox.last();
  assert.equal(message.kind, "sign-in");
  assert.equal(message.to, "ada@example.com");
  assert.match(message.code ?? "", /^\d{6}$/);
  assert.ok(message.url.startsWith("http://localhost:8000/auth/callback/email?token="));
  assert.ok(message.expiresAt instanceof Date);
  // Another browser (the mail app's) opens the link and confirms.
  const other = new Browser(auth.handlers.ALL);
  const signedIn = await postToken(other, outbox.lastToken());
  assert.equal(signedIn.status, 200);
  const session = await signedIn.json();
  assert.equal(session.user.sub, ADA.sub);
  assert.equal(session.user.emailVerified, true);
  await assertError(
    await postToken(new Browser(auth.handlers.ALL), outbox.lastToken()),
    400,
    "invalid_grant",
  );
});

Deno.test("an unknown address gets a no-account message and the same answer and cookies", async () => {
  const { auth, outbox } = emailAuth();
  const known = await askSignIn(new Browser(auth.handlers.ALL), "ada@example.com");
  const unknown = await askSignIn(new Browser(auth.handlers.ALL), "nobody@example.com");
  assert.equal(unknown.status, known.status);
  assert.deepEqual(await unknown.json(), await known.json());
  assert.ok(setCookieValue(known, FLOW_COOKIE));
  assert.ok(setCookieValue(unknown, FLOW_COOKIE));
  assert.equal(outbox.last().kind, "no-account");
  assert.equal(outbox.last().code, undefined);
  assert.equal(outbox.last().url.includes("token="), false);
});

Deno.test("GET on the link changes nothing: a page whose button posts the token", async () => {
  const { auth, outbox } = emailAuth();
  await askSignIn(new Browser(auth.handlers.ALL), "ada@example.com");
  const scanner = new Browser(auth.handlers.ALL);
  const url = new URL(outbox.last().url);
  for (let i = 0; i < 3; i++) {
    const page = await scanner.fetch("GET", `${url.pathname}${url.search}`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get("Referrer-Policy"), "no-referrer");
    assert.equal(page.headers.get("Cache-Control"), "no-store");
    const html = await page.text();
    assert.ok(!/<script/i.test(html));
    assert.match(html, /<form method="post" action="\/auth\/callback\/email">/);
    assert.ok(html.includes(outbox.lastToken()));
    assert.equal(scanner.cookies.size, 0);
  }
  // The link still works after the scanner's visits; a form post lands on "/".
  const user = new Browser(auth.handlers.ALL);
  const done = await postToken(user, outbox.lastToken(), true);
  assert.equal(done.status, 302);
  assert.equal(done.headers.get("Location"), "/");
  assert.ok(user.cookies.has("service-stack.session_token"));
});

Deno.test("the code signs in only in the browser that asked, and five wrong codes kill the flow", async () => {
  const { auth, outbox } = emailAuth();
  const asker = new Browser(auth.handlers.ALL);
  await askSignIn(asker, "ada@example.com", { redirectTo: "/welcome" });
  const code = outbox.last().code!;
  const wrong = code === "000000" ? "111111" : "000000";
  // Without the flow cookie the right code does nothing.
  await assertError(
    await new Browser(auth.handlers.ALL).fetch("POST", "/auth/callback/email", { json: { code } }),
    400,
    "invalid_grant",
  );
  for (let i = 0; i < 4; i++) {
    await assertError(
      await asker.fetch("POST", "/auth/callback/email", { json: { code: wrong } }),
      400,
      "invalid_grant",
    );
  }
  const right = await asker.fetch("POST", "/auth/callback/email", { form: { code } });
  assert.equal(right.status, 302);
  assert.equal(right.headers.get("Location"), "/welcome");
  assert.ok(asker.cookies.has("service-stack.session_token"));
});

Deno.test("after five wrong codes the right one is refused", async () => {
  const { auth, outbox } = emailAuth();
  const asker = new Browser(auth.handlers.ALL);
  await askSignIn(asker, "ada@example.com");
  const code = outbox.last().code!;
  const wrong = code === "000000" ? "111111" : "000000";
  for (let i = 0; i < 5; i++) {
    await asker.fetch("POST", "/auth/callback/email", { json: { code: wrong } });
  }
  await assertError(
    await asker.fetch("POST", "/auth/callback/email", { json: { code } }),
    400,
    "invalid_grant",
  );
  assert.equal(asker.cookies.has("service-stack.session_token"), false);
});

Deno.test("concurrent wrong codes cannot get past the bound", async () => {
  const { auth, outbox } = emailAuth();
  const asker = new Browser(auth.handlers.ALL);
  await askSignIn(asker, "ada@example.com");
  const code = outbox.last().code!;
  const guesses = Array.from({ length: 30 }, (_, i) => String(i).padStart(6, "0"))
    .filter((guess) => guess !== code);
  const answers = await Promise.all(
    guesses.map((guess) =>
      asker.handler(
        new Request("http://localhost:8000/auth/callback/email", {
          method: "POST",
          headers: { "Content-Type": "application/json", Cookie: asker.cookieHeader() },
          body: JSON.stringify({ code: guess }),
        }),
      )
    ),
  );
  assert.ok(answers.every((answer) => answer.status === 400));
  await assertError(
    await asker.fetch("POST", "/auth/callback/email", { json: { code } }),
    400,
    "invalid_grant",
  );
});

Deno.test("the link and the code of one message sign in once between them", async () => {
  const { auth, outbox } = emailAuth();
  const asker = new Browser(auth.handlers.ALL);
  await askSignIn(asker, "ada@example.com");
  const { code } = outbox.last();
  assert.equal((await postToken(new Browser(auth.handlers.ALL), outbox.lastToken())).status, 200);
  await assertError(
    await asker.fetch("POST", "/auth/callback/email", { json: { code } }),
    400,
    "invalid_grant",
  );
});

Deno.test("an unknown address's flow never signs in, whatever the code", async () => {
  const { auth } = emailAuth();
  const asker = new Browser(auth.handlers.ALL);
  await askSignIn(asker, "nobody@example.com");
  for (const code of ["000000", "123456"]) {
    await assertError(
      await asker.fetch("POST", "/auth/callback/email", { json: { code } }),
      400,
      "invalid_grant",
    );
  }
});

Deno.test("malformed codes, tokens and bodies are 400 and never echo the input", async () => {
  const { auth, outbox } = emailAuth();
  const asker = new Browser(auth.handlers.ALL);
  await askSignIn(asker, "ada@example.com");
  const token = outbox.lastToken();
  const cases: [unknown, number, string][] = [
    [{ code: "12345" }, 400, "invalid_request"],
    [{ code: "1234567" }, 400, "invalid_request"],
    [{ code: "12a456" }, 400, "invalid_request"],
    [{ code: "١٢٣٤٥٦" }, 400, "invalid_request"],
    [{ code: 123456 }, 400, "invalid_request"],
    [{ token: 42 }, 400, "invalid_grant"],
    [{ token: "x".repeat(5000) }, 400, "invalid_grant"],
    [{ token: token.slice(0, -2) + "AA" }, 400, "invalid_grant"],
    [{ token, code: "123456" }, 400, "invalid_request"],
    [{}, 400, "invalid_request"],
    [{ token, extra: 1 }, 400, "invalid_request"],
  ];
  for (const [json, status, code] of cases) {
    const response = await asker.fetch("POST", "/auth/callback/email", { json });
    const body = await assertError(response, status, code);
    assert.ok(!body.error_description.includes(token.slice(0, 20)));
  }
  const huge = await asker.fetch("POST", "/auth/callback/email", {
    json: { token: "x".repeat(70_000) },
  });
  await assertError(huge, 413, "invalid_request");
});

Deno.test("POST /signIn/email needs CSRF and a well-formed address", async () => {
  const { auth, outbox } = emailAuth();
  const browser = new Browser(auth.handlers.ALL);
  await assertError(
    await browser.fetch("POST", "/auth/signIn/email", { json: { email: "ada@example.com" } }),
    403,
    "invalid_csrf_token",
  );
  for (
    const email of [
      "not-an-address",
      "a@b.com, c@d.com",
      "Ada <ada@example.com>",
      "ａda@example.com",
      5,
    ]
  ) {
    const response = await askSignIn(browser, email as string);
    const body = await assertError(response, 400, "invalid_request");
    assert.ok(!body.error_description.includes("example.com"));
  }
  await assertError(
    await askSignIn(browser, "ada@example.com", { redirectTo: "https://evil.example/" }),
    400,
    "invalid_redirect_to",
  );
  assert.equal(outbox.messages.length, 0);
});

Deno.test("at most three messages per address per 15 minutes; later asks still answer 200", async () => {
  const clock = new Clock();
  const { auth, outbox } = emailAuth({ config: { clock: clock.fn } });
  const browser = new Browser(auth.handlers.ALL);
  for (let i = 0; i < 5; i++) {
    const response = await askSignIn(browser, i % 2 ? "ADA@example.com" : "ada@example.com");
    assert.equal(response.status, 200);
  }
  assert.equal(outbox.messages.length, 3);
  clock.advance(15 * 60 + 1);
  await askSignIn(browser, "ada@example.com");
  assert.equal(outbox.messages.length, 4);
});

Deno.test("an expired link is refused", async () => {
  const clock = new Clock();
  const { auth, outbox } = emailAuth({ config: { clock: clock.fn } });
  await askSignIn(new Browser(auth.handlers.ALL), "ada@example.com");
  clock.advance(601);
  await assertError(
    await postToken(new Browser(auth.handlers.ALL), outbox.lastToken()),
    400,
    "invalid_grant",
  );
});

Deno.test("a failing send answers 503 without a message or a session", async () => {
  const { auth } = emailAuth({
    email: {
      send: () => {
        throw new Error("smtp down");
      },
      findUser: () => ADA,
    },
  });
  const response = await askSignIn(new Browser(auth.handlers.ALL), "ada@example.com");
  await assertError(response, 503, "temporarily_unavailable");
});

Deno.test("createUser makes the account only once the address is proven", async () => {
  const created: string[] = [];
  const { auth, outbox } = emailAuth({
    email: {
      findUser: () => null,
      createUser: (email: string) => {
        created.push(email);
        return { sub: `u-${created.length}` };
      },
    },
  });
  await askSignIn(new Browser(auth.handlers.ALL), "new@example.com");
  assert.equal(outbox.last().kind, "sign-in");
  assert.deepEqual(created, []);
  const response = await postToken(new Browser(auth.handlers.ALL), outbox.lastToken());
  const session = await response.json();
  assert.deepEqual(created, ["new@example.com"]);
  assert.equal(session.user.email, "new@example.com");
  assert.equal(session.user.emailVerified, true);
});

Deno.test("a token of another purpose is refused: reset links do not sign in", async () => {
  const { auth, outbox } = emailAuth();
  const browser = new Browser(auth.handlers.ALL);
  await askReset(browser, "ada@example.com");
  assert.equal(outbox.last().kind, "reset-password");
  await assertError(await postToken(browser, outbox.lastToken()), 400, "invalid_grant");
  // And a sign-in link does not reset a password.
  await askSignIn(browser, "ada@example.com");
  await assertError(
    await browser.fetch("POST", "/auth/password/reset", {
      json: { token: outbox.lastToken(), password: "new password" },
    }),
    400,
    "invalid_grant",
  );
});

Deno.test("password reset: same answer for unknown addresses, token used once, sessions revoked", async () => {
  const store = memoryStore();
  const resets: { sub: string; email: string; password: string }[] = [];
  const { auth, outbox } = emailAuth({ store, resets });
  const device = new Browser(auth.handlers.ALL);
  await device.signIn();
  const browser = new Browser(auth.handlers.ALL);
  const unknown = await askReset(browser, "nobody@example.com");
  assert.equal(unknown.status, 200);
  assert.equal(outbox.last().kind, "no-account");
  const known = await askReset(browser, "ada@example.com");
  assert.equal(known.status, 200);
  assert.deepEqual(await known.json(), await unknown.json());
  const message = outbox.last();
  assert.equal(message.kind, "reset-password");
  assert.ok(message.url.startsWith("http://localhost:8000/auth/password/reset?token="));
  assert.ok(message.expiresAt.getTime() - Date.now() > 3500_000);
  const form = await browser.fetch(
    "GET",
    new URL(message.url).pathname + new URL(message.url).search,
  );
  assert.equal(form.status, 200);
  assert.match(await form.text(), /type="password"/);
  const reset = await browser.fetch("POST", "/auth/password/reset", {
    json: { token: outbox.lastToken(), password: "new password" },
  });
  assert.equal(reset.status, 200);
  assert.deepEqual(await reset.json(), { ok: true });
  assert.deepEqual(resets, [{ sub: ADA.sub, email: "ada@example.com", password: "new password" }]);
  assert.equal(browser.cookies.has("service-stack.session_token"), false);
  assert.equal(await (await device.fetch("GET", "/auth/session")).text(), "null");
  await assertError(
    await browser.fetch("POST", "/auth/password/reset", {
      json: { token: outbox.lastToken(), password: "again" },
    }),
    400,
    "invalid_grant",
  );
  assert.equal(resets.length, 1);
});

Deno.test("pages.resetPassword moves the reset link to the app's form, as an absolute URL", async () => {
  // A path alone in an email opens nothing: the link is built from the origin (baseURL) too.
  for (
    const [page, expected] of [
      ["/reset", /^http:\/\/localhost:8000\/reset\?token=[\w.-]+$/],
      ["/reset?from=mail", /^http:\/\/localhost:8000\/reset\?from=mail&token=[\w.-]+$/],
      ["https://accounts.example.com/reset", /^https:\/\/accounts\.example\.com\/reset\?token=/],
    ] as const
  ) {
    const { auth, outbox } = emailAuth({ config: { pages: { resetPassword: page } } });
    const response = await askReset(new Browser(auth.handlers.ALL), "ada@example.com");
    assert.equal(response.status, 200);
    assert.match(outbox.last().url, expected, page);
  }
});

Deno.test("verification marks the session's address verified; PATCH cannot set it or the email", async () => {
  const verified: unknown[] = [];
  const { auth, outbox } = emailAuth({
    email: {
      findUser: () => ADA,
      onVerified: (event: unknown) => {
        verified.push(event);
      },
    },
  });
  const browser = new Browser(auth.handlers.ALL);
  const signedIn = await (await browser.signIn()).json();
  assert.equal(signedIn.user.emailVerified, undefined);
  let csrf = await browser.csrf();
  for (const user of [{ emailVerified: true }, { email: "other@example.com" }]) {
    await assertError(
      await browser.fetch("PATCH", "/auth/session", {
        json: { user },
        headers: { "X-CSRF-Token": csrf },
      }),
      400,
      "invalid_request",
    );
  }
  const asked = await browser.fetch("POST", "/auth/email/verify", {
    headers: { "X-CSRF-Token": csrf },
  });
  assert.equal(asked.status, 200);
  assert.equal(outbox.last().kind, "verify-email");
  assert.equal(outbox.last().to, "ada@example.com");
  const confirmed = await postToken(browser, outbox.lastToken());
  assert.equal(confirmed.status, 200);
  assert.deepEqual(verified, [{ sub: ADA.sub, email: "ada@example.com" }]);
  const session = await (await browser.fetch("GET", "/auth/session")).json();
  assert.equal(session.user.emailVerified, true);
  // A name change keeps it.
  csrf = await browser.csrf();
  const renamed = await browser.fetch("PATCH", "/auth/session", {
    json: { user: { name: "Ada L." } },
    headers: { "X-CSRF-Token": csrf },
  });
  assert.equal((await renamed.json()).user.emailVerified, true);
});

Deno.test("POST /email/verify and /email/change need a session", async () => {
  const { auth } = emailAuth();
  const browser = new Browser(auth.handlers.ALL);
  const csrf = await browser.csrf();
  await assertError(
    await browser.fetch("POST", "/auth/email/verify", { headers: { "X-CSRF-Token": csrf } }),
    401,
    "invalid_session_token",
  );
  await assertError(
    await browser.fetch("POST", "/auth/email/change", {
      json: { email: "new@example.com" },
      headers: { "X-CSRF-Token": csrf },
    }),
    401,
    "invalid_session_token",
  );
});

Deno.test("change of address: confirmation at the new address, notice to the old one", async () => {
  const changes: unknown[] = [];
  const { auth, outbox } = emailAuth({
    email: {
      findUser: () => ADA,
      onChanged: (event: unknown) => {
        changes.push(event);
      },
    },
  });
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  const csrf = await browser.csrf();
  const asked = await browser.fetch("POST", "/auth/email/change", {
    json: { email: "ada.new@example.com" },
    headers: { "X-CSRF-Token": csrf },
  });
  assert.equal(asked.status, 200);
  assert.equal(outbox.last().kind, "change-email");
  assert.equal(outbox.last().to, "ada.new@example.com");
  assert.deepEqual(changes, []);
  const confirmed = await postToken(browser, outbox.lastToken());
  assert.equal(confirmed.status, 200);
  assert.deepEqual(changes, [{ sub: ADA.sub, from: "ada@example.com", to: "ada.new@example.com" }]);
  assert.equal(outbox.last().kind, "email-changed");
  assert.equal(outbox.last().to, "ada@example.com");
  const session = await (await browser.fetch("GET", "/auth/session")).json();
  assert.equal(session.user.email, "ada.new@example.com");
  assert.equal(session.user.emailVerified, true);
});

Deno.test("without email configured the email routes are 404", async () => {
  const auth = makeAuth();
  for (const path of ["/auth/signIn/email", "/auth/callback/email", "/auth/password/forgot"]) {
    const response = await auth.handlers.ALL(
      new Request(`http://localhost:8000${path}`, { method: "POST" }),
    );
    assert.equal(response.status, 404, path);
  }
});

Deno.test("Origin null passes only when the browser's Sec-Fetch-Site says same-origin", async () => {
  const { auth, outbox } = emailAuth();
  await askSignIn(new Browser(auth.handlers.ALL), "ada@example.com");
  const token = outbox.lastToken();
  const post = (headers: Record<string, string>) =>
    auth.handlers.ALL(
      new Request("http://localhost:8000/auth/callback/email", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ token }).toString(),
      }),
    );
  for (
    const headers of <Record<string, string>[]> [
      { Origin: "null" },
      { Origin: "null", "Sec-Fetch-Site": "cross-site" },
      { Origin: "null", "Sec-Fetch-Site": "same-site" },
      { Origin: "https://evil.example", "Sec-Fetch-Site": "same-origin" },
    ]
  ) {
    const refused = await post(headers);
    assert.equal(refused.status, 403, JSON.stringify(headers));
  }
  const accepted = await post({ Origin: "null", "Sec-Fetch-Site": "same-origin" });
  assert.equal(accepted.status, 302);
});
