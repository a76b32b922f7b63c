// GET /session for a token already verified (the cache's synchronous path): the same answer as
// the first read, the same headers, and no session once the token's time is up.
import assert from "node:assert/strict";
import { signInAs } from "../../testing.ts";
import { Browser, Clock, makeAuth } from "./_helpers.ts";

Deno.test("a cached session read answers what the first read did, with the same headers", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  // A new instance has an empty cache: its first read verifies the token, the next ones reuse it.
  const fresh = makeAuth();
  const reader = new Browser(fresh.handlers.ALL);
  reader.cookies = new Map(browser.cookies);
  const first = await reader.fetch("GET", "/auth/session");
  const second = await reader.fetch("GET", "/auth/session");
  assert.equal(second.status, 200);
  assert.deepEqual([...second.headers], [...first.headers]);
  assert.deepEqual([...second.headers], [
    ["cache-control", "no-store"],
    ["content-type", "application/json; charset=utf-8"],
    ["x-content-type-options", "nosniff"],
  ]);
  const body = await second.json();
  assert.deepEqual(body, await first.json());
  assert.equal(body.user.name, "Ada");
});

Deno.test("a cached session read is no session once the token has expired", async () => {
  const clock = new Clock();
  const auth = makeAuth({ clock: clock.fn, session: { maxAge: 3600, updateAge: 3500 } });
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  assert.equal((await (await browser.fetch("GET", "/auth/session")).json()).user.name, "Ada");
  clock.advance(3400);
  assert.equal((await (await browser.fetch("GET", "/auth/session")).json()).user.name, "Ada");
  clock.advance(200);
  const response = await browser.fetch("GET", "/auth/session");
  assert.equal(await response.json(), null);
  assert.ok(response.headers.getSetCookie().some((line) => /Max-Age=0/i.test(line)));
});

Deno.test("a cached session read still checks a cross-origin Origin and answers through a promise", async () => {
  const auth = makeAuth({ trustedOrigins: ["https://trusted.example"] });
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  await browser.fetch("GET", "/auth/session"); // the token is now in the verified-token cache
  const pending = auth.handlers.GET(
    new Request(`${browser.origin}/auth/session`, { headers: { Cookie: browser.cookieHeader() } }),
  );
  assert.ok(pending instanceof Promise);
  assert.equal((await (await pending).json()).user.name, "Ada");
  const refused = await browser.fetch("GET", "/auth/session", {
    headers: { Origin: "https://evil.example" },
  });
  assert.equal(refused.status, 403);
  assert.equal((await refused.json()).error, "access_denied");
  assert.equal(refused.headers.get("Vary"), "Origin");
  const trusted = await browser.fetch("GET", "/auth/session", {
    headers: { Origin: "https://trusted.example" },
  });
  assert.equal(trusted.status, 200);
  assert.equal(trusted.headers.get("Access-Control-Allow-Origin"), "https://trusted.example");
  assert.equal(trusted.headers.get("Access-Control-Allow-Credentials"), "true");
  assert.equal(trusted.headers.get("Vary"), "Origin");
  assert.equal((await trusted.json()).user.name, "Ada");
  const sameOrigin = await browser.fetch("GET", "/auth/session", {
    headers: { Origin: browser.origin },
  });
  assert.equal(sameOrigin.headers.get("Access-Control-Allow-Origin"), null);
  assert.equal((await sameOrigin.json()).user.name, "Ada");
});

Deno.test("interleaved requests with different Cookie headers each read their own cookies", async () => {
  const auth = makeAuth();
  const cookieOf = async (sub: string) =>
    (await signInAs(auth, { sub, name: sub.toUpperCase() })).split("; ")[0];
  const [ada, bob] = [await cookieOf("ada"), await cookieOf("bob")];
  const read = async (cookie: string | undefined) => {
    const headers = cookie === undefined ? undefined : { Cookie: cookie };
    const response = await auth.handlers.GET(
      new Request("http://localhost/auth/session", { headers }),
    );
    return (await response.json())?.user?.sub ?? null;
  };
  const sequence = [ada, ada, bob, undefined, ada, `${ada}; ${ada}`, bob, "", bob, ada];
  const expected = ["ada", "ada", "bob", null, "ada", null, "bob", null, "bob", "ada"];
  for (let round = 0; round < 2; round++) {
    const subs = [];
    for (const cookie of sequence) subs.push(await read(cookie));
    assert.deepEqual(subs, expected);
  }
});
