// Session cookie chunking: a large identity is split into numbered chunks
// under 4096 bytes per line, joined on read by exact names only.
import assert from "node:assert/strict";
import {
  assertNoSession,
  bioSchema,
  type BioUser,
  Browser,
  HTTPS_ORIGIN,
  makeAuth,
  setCookieNames,
} from "./_helpers.ts";

const SESSION = "service-stack.session_token";
const CSRF = "service-stack.csrf_token";

/** About 6 KB of varied text, so that nothing compresses it away. */
function longBio(): string {
  let text = "";
  for (let i = 0; text.length < 6000; i++) text += `line ${i} of a long biography; `;
  return text;
}

const BIO = longBio();

function bioAuth(bio = BIO) {
  return makeAuth({
    identity: { schema: bioSchema() },
    credentials: {
      authorize: ({ username, password }) =>
        username === "ada" && password === "correct horse"
          ? { sub: "user-1", name: "Ada", bio } as BioUser
          : null,
    },
  });
}

function chunkNames(response: Response, base = SESSION): string[] {
  return setCookieNames(response).filter((name) => name.startsWith(`${base}.`));
}

Deno.test("a large identity is set as session_token.0, .1, ... each line under 4096 bytes", async () => {
  const browser = new Browser(bioAuth().handlers.ALL);
  const response = await browser.signIn();
  assert.equal(response.status, 200);
  const names = chunkNames(response);
  assert.ok(names.length >= 2, `expected chunks, got ${names}`);
  assert.deepEqual(names, names.map((_, i) => `${SESSION}.${i}`));
  assert.ok(!setCookieNames(response).includes(SESSION));
  for (const line of response.headers.getSetCookie()) {
    assert.ok(new TextEncoder().encode(line).length < 4096, `line of ${line.length} bytes`);
  }
});

Deno.test("every chunk line carries the cookie's attributes", async () => {
  const browser = new Browser(bioAuth().handlers.ALL);
  const response = await browser.signIn();
  for (const line of response.headers.getSetCookie()) {
    if (!line.startsWith(`${SESSION}.`)) continue;
    assert.match(line, /; Path=\/; Max-Age=2592000; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
  }
});

Deno.test("over HTTPS the chunks carry the __Host- prefix and stay under 4096 bytes", async () => {
  const browser = new Browser(bioAuth().handlers.ALL, HTTPS_ORIGIN);
  const response = await browser.signIn();
  const names = chunkNames(response, `__Host-${SESSION}`);
  assert.ok(names.length >= 2);
  for (const line of response.headers.getSetCookie()) {
    assert.ok(line.length < 4096);
  }
  const session = await (await browser.fetch("GET", "/auth/session")).json();
  assert.equal(session.user.bio, BIO);
});

Deno.test("reading joins the chunks back into the session", async () => {
  const browser = new Browser(bioAuth().handlers.ALL);
  await browser.signIn();
  const response = await browser.fetch("GET", "/auth/session");
  assert.equal(response.status, 200);
  assert.deepEqual((await response.json()).user, { sub: "user-1", name: "Ada", bio: BIO });
});

Deno.test("chunks sent in any order are joined by index", async () => {
  const auth = bioAuth();
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  const reversed = [...browser.cookies].reverse().map(([n, v]) => `${n}=${v}`).join("; ");
  const request = new Request("http://localhost:8000/", { headers: { Cookie: reversed } });
  assert.equal((await auth.api.getSession(request))?.user.sub, "user-1");
});

Deno.test("a later small session clears the stale chunks", async () => {
  const browser = new Browser(bioAuth().handlers.ALL);
  const big = await browser.signIn();
  const count = chunkNames(big).length;
  const response = await browser.fetch("PATCH", "/auth/session", {
    json: { user: { bio: "short" } },
    headers: { "X-CSRF-Token": browser.cookies.get(CSRF)! },
  });
  assert.equal(response.status, 200);
  const lines = response.headers.getSetCookie();
  assert.ok(
    lines.some((line) => line.startsWith(`${SESSION}=`) && !line.startsWith(`${SESSION}=;`)),
  );
  for (let i = 0; i < count; i++) {
    assert.ok(
      lines.some((line) => line.startsWith(`${SESSION}.${i}=; Path=/; Max-Age=0;`)),
      `chunk ${i} not cleared`,
    );
  }
  assert.deepEqual([...browser.cookies.keys()].filter((n) => n.startsWith(SESSION)), [SESSION]);
  const session = await (await browser.fetch("GET", "/auth/session")).json();
  assert.equal(session.user.bio, "short");
});

Deno.test("a later large session clears the stale unchunked cookie", async () => {
  const browser = new Browser(bioAuth("small").handlers.ALL);
  await browser.signIn();
  assert.ok(browser.cookies.has(SESSION));
  const response = await browser.fetch("PATCH", "/auth/session", {
    json: { user: { bio: BIO } },
    headers: { "X-CSRF-Token": browser.cookies.get(CSRF)! },
  });
  assert.equal(response.status, 200);
  assert.ok(response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION}=; `)));
  assert.equal(browser.cookies.has(SESSION), false);
  const session = await (await browser.fetch("GET", "/auth/session")).json();
  assert.equal(session.user.bio, BIO);
});

Deno.test("sign-out clears every chunk", async () => {
  const browser = new Browser(bioAuth().handlers.ALL);
  const big = await browser.signIn();
  const count = chunkNames(big).length;
  const response = await browser.fetch("POST", "/auth/signOut", {
    headers: { "X-CSRF-Token": browser.cookies.get(CSRF)! },
  });
  assert.equal(response.status, 200);
  assert.equal(chunkNames(response).length, count);
  assert.deepEqual([...browser.cookies.keys()], []);
});

Deno.test("a foreign cookie session_token.evil never joins the session value", async () => {
  const auth = bioAuth();
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  const token = [...browser.cookies]
    .filter(([name]) => name.startsWith(`${SESSION}.`))
    .map(([, value]) => value)
    .join("");
  const half = Math.floor(token.length / 2);
  for (const suffix of ["evil", "01", "1x", "-1", "1.0", "", "00"]) {
    const cookie = `${SESSION}.0=${token.slice(0, half)}; ${SESSION}.${suffix}=${
      token.slice(half)
    }`;
    const response = await auth.handlers.ALL(
      new Request("http://localhost:8000/auth/session", { headers: { Cookie: cookie } }),
    );
    await assertNoSession(response);
  }
});

Deno.test("a foreign cookie next to valid chunks is ignored, and never cleared", async () => {
  const auth = bioAuth();
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  browser.cookies.set(`${SESSION}.evil`, "junk");
  const response = await browser.fetch("GET", "/auth/session");
  assert.equal(response.status, 200);
  const signOut = await browser.fetch("POST", "/auth/signOut", {
    headers: { "X-CSRF-Token": browser.cookies.get(CSRF)! },
  });
  assert.ok(!setCookieNames(signOut).includes(`${SESSION}.evil`));
});

Deno.test("chunks must be contiguous from 0", async () => {
  const auth = bioAuth();
  const browser = new Browser(auth.handlers.ALL);
  await browser.signIn();
  const chunks = [...browser.cookies].filter(([name]) => name.startsWith(`${SESSION}.`));
  assert.ok(chunks.length >= 2);
  const withoutFirst = chunks.slice(1).map(([n, v]) => `${n}=${v}`).join("; ");
  const withoutSecond = [chunks[0], ...chunks.slice(2)].map(([n, v]) => `${n}=${v}`).join("; ");
  for (const cookie of [withoutFirst, withoutSecond]) {
    const response = await auth.handlers.ALL(
      new Request("http://localhost:8000/auth/session", { headers: { Cookie: cookie } }),
    );
    await assertNoSession(response);
  }
});
