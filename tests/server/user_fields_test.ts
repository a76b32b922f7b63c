// Every way into a session applies the same user-field rules, and no error
// description repeats request-supplied text beyond a short, plain field name.
import assert from "node:assert/strict";
import type { LogEntry } from "../../mod.ts";
import { createMockProvider } from "../../testing.ts";
import { assertError, Browser, makeAuth } from "./_helpers.ts";

const BAD_FIELDS: [string, string][] = [
  ["image", "javascript:alert(document.cookie)"],
  ["image", "data:text/html,<script>alert(1)</script>"],
  ["email", "ada@example.test,attacker@evil.example"],
  ["email", "Ada <ada@example.test>"],
  ["email", "ｂoss@corp.example"],
  ["email", "boss＠corp.example"],
  ["name", "Ada\r\nSet-Cookie: admin=1"],
  ["name", "a".repeat(300)],
];

async function signedIn() {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  return { auth, browser };
}

for (const [field, value] of BAD_FIELDS) {
  const label = `${field}=${JSON.stringify(value.slice(0, 30))}`;

  Deno.test(`PATCH /session refuses ${label} with 400 and never echoes it`, async () => {
    const { browser } = await signedIn();
    const response = await browser.fetch("PATCH", "/auth/session", {
      json: { user: { [field]: value } },
      headers: { "X-CSRF-Token": await browser.csrf() },
    });
    const body = await assertError(response, 400, "invalid_request");
    assert.ok(!body.error_description.includes(value.slice(0, 12)));
    assert.match(body.error_description, new RegExp(`"${field}"`));
  });

  Deno.test(`POST /session (form) refuses ${label} with 400`, async () => {
    const { browser } = await signedIn();
    const response = await browser.fetch("POST", "/auth/session", {
      form: { [field]: value, csrfToken: await browser.csrf() },
    });
    await assertError(response, 400, "invalid_request");
  });

  Deno.test(`api.updateSession refuses ${label} with an AuthError`, async () => {
    const { auth, browser } = await signedIn();
    const request = new Request("http://localhost:8000/", {
      headers: { Cookie: browser.cookieHeader() },
    });
    await assert.rejects(
      () => auth.api.updateSession(request, { [field]: value }),
      (error: unknown) => (error as { code?: string }).code === "invalid_request",
    );
  });

  Deno.test(`credentials sign-in refuses an authorize user with ${label}`, async () => {
    const auth = makeAuth({
      credentials: { authorize: () => ({ sub: "user-1", [field]: value }) },
    });
    const browser = new Browser(auth.handlers.ALL);
    await assertError(await browser.signIn(), 400, "invalid_request");
    assert.equal(browser.cookies.has("service-stack.session_token"), false);
  });
}

Deno.test("a provider profile's breaking fields are left out and the sign-in goes on", async () => {
  const mock = createMockProvider();
  const auth = makeAuth({
    oauth: [{
      ...mock.provider,
      profile: () => ({
        sub: "p-1",
        name: "Grace",
        email: "grace@example.test,eve@evil.example",
        image: "javascript:alert(1)",
      }),
    }],
    fetch: mock.fetch,
  });
  const browser = new Browser(auth.handlers.ALL);
  const start = await browser.fetch("GET", `/auth/signIn/${mock.provider.id}`);
  const consent = await mock.fetch(start.headers.get("Location")!);
  const back = new URL(consent.headers.get("Location")!);
  await browser.fetch("GET", `${back.pathname}${back.search}`);
  const session = await (await browser.fetch("GET", "/auth/session")).json();
  assert.deepEqual(session.user, { sub: "p-1", name: "Grace" });
});

Deno.test("sign-up: an attacker-chosen unknown key is never echoed, however long", async () => {
  const strict = {
    "~standard": {
      version: 1 as const,
      vendor: "test",
      validate: (value: unknown) => {
        const keys = Object.keys(value as object).filter((key) => key !== "name");
        return keys.length === 0
          ? { value: value as { name?: string } }
          : { issues: keys.map((key) => ({ message: `Unrecognized key: "${key}"`, path: [key] })) };
      },
    },
  };
  const auth = makeAuth({
    signUp: { schema: strict, onCreateUser: () => ({ sub: "n" }) },
  });
  const browser = new Browser(auth.handlers.ALL);
  for (const key of ["<img src=x onerror=alert(1)>", "k".repeat(40_000), "nick name"]) {
    const response = await browser.fetch("POST", "/auth/signUp", {
      json: { name: "Ada", [key]: 1 },
      headers: { "X-CSRF-Token": await browser.csrf() },
    });
    const body = await assertError(response, 400, "invalid_request");
    assert.equal(body.error_description, "The sign-up data is invalid.");
  }
  const plain = await browser.fetch("POST", "/auth/signUp", {
    json: { name: "Ada", nickname: 1 },
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  const body = await assertError(plain, 400, "invalid_request");
  assert.equal(body.error_description, "The sign-up data is invalid; check nickname.");
});

Deno.test("an unknown update field with markup or over 64 characters is left out of the message", async () => {
  const { browser } = await signedIn();
  for (const key of ["<script>alert(1)</script>", "x".repeat(65), "a b"]) {
    const response = await browser.fetch("PATCH", "/auth/session", {
      json: { user: { [key]: "v" } },
      headers: { "X-CSRF-Token": await browser.csrf() },
    });
    const body = await assertError(response, 400, "invalid_request");
    assert.ok(!body.error_description.includes(key), body.error_description);
  }
});

Deno.test("a repeated form field with markup in its name is not echoed", async () => {
  const { browser } = await signedIn();
  const response = await browser.handler(
    new Request("http://localhost:8000/auth/session", {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: browser.cookieHeader(),
      },
      body: "%3Cb%3E=1&%3Cb%3E=2",
    }),
  );
  const body = await assertError(response, 400, "invalid_request");
  assert.ok(!body.error_description.includes("<b>"));
});

Deno.test("a hook throwing a Proxy, or an Error whose name getter throws, is a clean logged 500", async () => {
  const hostile: unknown[] = [
    new Proxy({}, {
      getPrototypeOf() {
        throw new Error("secondary secret-message");
      },
    }),
    Object.defineProperty(new Error("secret-message"), "name", {
      get() {
        throw new Error("secondary secret-message");
      },
    }),
    Object.defineProperty(new Error("secret-message"), "message", {
      get() {
        throw new Error("secondary secret-message");
      },
    }),
  ];
  for (const thrown of hostile) {
    const entries: LogEntry[] = [];
    const auth = makeAuth({
      credentials: {
        authorize: () => {
          throw thrown;
        },
      },
      logger: { level: "debug", log: (entry: LogEntry) => entries.push(entry) },
    });
    const browser = new Browser(auth.handlers.ALL);
    await assertError(await browser.signIn(), 500, "server_error");
    assert.ok(entries.some((entry) => entry.level === "error"));
    assert.ok(!JSON.stringify(entries).includes("secret-message"));
  }
});
