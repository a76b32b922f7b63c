// Session updates through POST|PATCH /session and the server API
// (updateSession, signOut, signIn with credentials).
import assert from "node:assert/strict";
import { AuthError } from "../../mod.ts";
import {
  ADA,
  assertError,
  bioSchema,
  type BioUser,
  Browser,
  HTTPS_ORIGIN,
  makeAuth,
  ORIGIN,
  setCookieNames,
  setCookieValue,
} from "./_helpers.ts";

const SESSION = "service-stack.session_token";
const CSRF = "service-stack.csrf_token";

async function signedIn(auth = makeAuth()) {
  const browser = new Browser(auth.handlers.ALL);
  assert.equal((await browser.signIn()).status, 200);
  return browser;
}

function update(browser: Browser, json: unknown, method = "PATCH"): Promise<Response> {
  return browser.fetch(method, "/auth/session", {
    json,
    headers: { "X-CSRF-Token": browser.cookies.get(CSRF)! },
  });
}

async function currentUser(browser: Browser): Promise<Record<string, unknown>> {
  return (await (await browser.fetch("GET", "/auth/session")).json()).user;
}

function bioAuth() {
  return makeAuth({
    identity: { schema: bioSchema(100) },
    credentials: { authorize: () => ({ sub: "user-1", name: "Ada" } as BioUser) },
  });
}

Deno.test("update: changing sub is refused with 400 and the session is unchanged", async () => {
  const browser = await signedIn();
  for (const method of ["PATCH", "POST"]) {
    const response = await update(browser, { user: { sub: "admin" } }, method);
    await assertError(response, 400, "invalid_request");
    assert.equal(setCookieValue(response, SESSION), undefined);
  }
  assert.deepEqual(await currentUser(browser), ADA);
});

Deno.test("update: changing sub through a form post is refused with 400", async () => {
  const browser = await signedIn();
  const response = await browser.fetch("POST", "/auth/session", {
    form: { sub: "admin", csrfToken: browser.cookies.get(CSRF)! },
  });
  await assertError(response, 400, "invalid_request");
});

Deno.test("update: an unknown user field is refused with 400", async () => {
  const browser = await signedIn();
  await assertError(await update(browser, { user: { role: "admin" } }), 400, "invalid_request");
  assert.deepEqual(await currentUser(browser), ADA);
});

Deno.test("update: an unknown top-level field is refused with 400", async () => {
  const browser = await signedIn();
  await assertError(await update(browser, { role: "admin" }), 400, "invalid_request");
});

Deno.test("update: reserved claims are refused with 400", async () => {
  const browser = await signedIn();
  for (const claim of ["exp", "iat", "nbf", "jti", "auth_time", "iss", "aud"]) {
    const response = await update(browser, { user: { [claim]: 9999999999 } });
    await assertError(response, 400, "invalid_request");
  }
});

Deno.test("update: a non-string or over-long value is refused with 400", async () => {
  const browser = await signedIn();
  for (const name of [42, null, ["a"], { a: 1 }, "x".repeat(2049)]) {
    await assertError(await update(browser, { user: { name } }), 400, "invalid_request");
  }
  await assertError(await update(browser, { user: "Ada" }), 400, "invalid_request");
});

Deno.test("update: an empty string removes an optional field", async () => {
  const browser = await signedIn();
  const response = await update(browser, { user: { email: "" } });
  assert.equal(response.status, 200);
  assert.deepEqual(await currentUser(browser), { sub: ADA.sub, name: ADA.name });
});

Deno.test("update: with identity.schema an extra declared field is accepted", async () => {
  const browser = await signedIn(bioAuth());
  const response = await update(browser, { user: { bio: "Analyst" } });
  assert.equal(response.status, 200);
  assert.equal((await response.json()).user.bio, "Analyst");
  assert.deepEqual(await currentUser(browser), { sub: "user-1", name: "Ada", bio: "Analyst" });
});

Deno.test("update: with identity.schema an undeclared or invalid field is refused with 400", async () => {
  const browser = await signedIn(bioAuth());
  for (const user of [{ role: "admin" }, { bio: 5 }, { bio: "x".repeat(101) }, { sub: "other" }]) {
    await assertError(await update(browser, { user }), 400, "invalid_request");
  }
  assert.deepEqual(await currentUser(browser), { sub: "user-1", name: "Ada" });
});

Deno.test("update: a value too large for the session token is 400, not 500", async () => {
  const auth = makeAuth({ identity: { schema: bioSchema(100_000) } });
  const browser = await signedIn(auth);
  for (const size of [20_000, 60_000]) {
    const response = await update(browser, { user: { bio: "x".repeat(size) } });
    await assertError(response, 400, "invalid_request");
  }
  assert.deepEqual(await currentUser(browser), ADA);
});

Deno.test("api.updateSession with a value too large for the token rejects with an AuthError", async () => {
  const auth = makeAuth({ identity: { schema: bioSchema(100_000) } });
  const browser = await signedIn(auth);
  const request = new Request(`${ORIGIN}/`, { headers: { Cookie: browser.cookieHeader() } });
  await assert.rejects(
    () => auth.api.updateSession(request, { bio: "x".repeat(30_000) } as Partial<BioUser>),
    (error) => error instanceof AuthError && error.code === "invalid_request",
  );
});

// --- api ---------------------------------------------------------------------------

Deno.test("api.updateSession with { headers } receives the new session cookie", async () => {
  const auth = makeAuth();
  const browser = await signedIn(auth);
  const headers = new Headers();
  const request = new Request(`${ORIGIN}/`, { headers: { Cookie: browser.cookieHeader() } });
  const session = await auth.api.updateSession(request, { name: "Ada L." }, { headers });
  assert.equal(session?.user.name, "Ada L.");
  const lines = headers.getSetCookie();
  assert.equal(lines.length, 1);
  assert.ok(lines[0].startsWith(`${SESSION}=`));
  const next = new Request(`${ORIGIN}/`, { headers: { Cookie: lines[0].split(";")[0] } });
  assert.equal((await auth.api.getSession(next))?.user.name, "Ada L.");
});

Deno.test("api.updateSession over HTTPS sets the __Host- cookie", async () => {
  const auth = makeAuth();
  const browser = new Browser(auth.handlers.ALL, HTTPS_ORIGIN);
  await browser.signIn();
  const headers = new Headers();
  const request = new Request(`${HTTPS_ORIGIN}/`, {
    headers: { Cookie: browser.cookieHeader() },
  });
  await auth.api.updateSession(request, { name: "Secure" }, { headers });
  assert.ok(headers.getSetCookie()[0].startsWith(`__Host-${SESSION}=`));
});

Deno.test("api.updateSession without a session returns null and sets nothing", async () => {
  const auth = makeAuth();
  const headers = new Headers();
  assert.equal(
    await auth.api.updateSession(new Request(`${ORIGIN}/`), { name: "x" }, { headers }),
    null,
  );
  assert.deepEqual(headers.getSetCookie(), []);
});

Deno.test("api.updateSession refuses sub with an AuthError", async () => {
  const auth = makeAuth();
  const browser = await signedIn(auth);
  const request = new Request(`${ORIGIN}/`, { headers: { Cookie: browser.cookieHeader() } });
  await assert.rejects(
    () => auth.api.updateSession(request, { sub: "admin" }),
    (error) => error instanceof AuthError && error.code === "invalid_request",
  );
});

Deno.test("api.signOut without a request clears the cookies of both schemes", async () => {
  const auth = makeAuth();
  const response = await auth.api.signOut();
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { ok: true });
  assert.deepEqual(
    setCookieNames(response).sort(),
    [
      `__Host-${CSRF}`,
      `__Host-${SESSION}`,
      CSRF,
      SESSION,
    ].sort(),
  );
  for (const line of response.headers.getSetCookie()) {
    assert.match(line, /^[^=]+=; Path=\/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; /);
    assert.equal(line.includes("; Secure"), line.startsWith("__"));
  }
});

Deno.test("api.signOut with a request clears that scheme's cookies only", async () => {
  const auth = makeAuth();
  const response = await auth.api.signOut({ request: new Request(`${HTTPS_ORIGIN}/`) });
  assert.deepEqual(setCookieNames(response), [`__Host-${SESSION}`, `__Host-${CSRF}`]);
});

Deno.test("api.signOut with redirect answers 302, refusing an off-site target", async () => {
  const auth = makeAuth();
  const ok = await auth.api.signOut({ redirect: true, redirectTo: "/bye" });
  assert.equal(ok.status, 302);
  assert.equal(ok.headers.get("Location"), "/bye");
  const evil = await auth.api.signOut({ redirect: true, redirectTo: "https://evil.example/" });
  await assertError(evil, 400, "invalid_redirect_to");
});

Deno.test('api.signIn("credentials", { request, credentials }) answers 200 with the session cookie', async () => {
  const auth = makeAuth();
  const response = await auth.api.signIn("credentials", {
    request: new Request(`${ORIGIN}/login`, { method: "POST" }),
    credentials: { username: "ada", password: "correct horse" },
  });
  assert.equal(response.status, 200);
  assert.deepEqual((await response.json()).user, ADA);
  const token = setCookieValue(response, SESSION);
  assert.ok(token);
  assert.ok(setCookieValue(response, CSRF));
  const request = new Request(`${ORIGIN}/`, { headers: { Cookie: `${SESSION}=${token}` } });
  assert.deepEqual((await auth.api.getSession(request))?.user, ADA);
});

Deno.test('api.signIn("credentials") with a wrong password answers 401 access_denied', async () => {
  const auth = makeAuth();
  const response = await auth.api.signIn("credentials", {
    request: new Request(`${ORIGIN}/login`),
    credentials: { username: "ada", password: "nope" },
  });
  await assertError(response, 401, "access_denied");
});

Deno.test('api.signIn("credentials") with redirect answers 302 to redirectTo', async () => {
  const auth = makeAuth();
  const response = await auth.api.signIn("credentials", {
    request: new Request(`${ORIGIN}/login`),
    credentials: { username: "ada", password: "correct horse" },
    redirect: true,
    redirectTo: "/home",
  });
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("Location"), "/home");
  assert.ok(setCookieValue(response, SESSION));
});

Deno.test("api.signIn without a request throws a TypeError", async () => {
  const auth = makeAuth();
  await assert.rejects(
    () => auth.api.signIn("credentials", {} as never),
    TypeError,
  );
});

Deno.test("api.getSession never throws, whatever the cookie", async () => {
  const auth = makeAuth();
  for (const cookie of [`${SESSION}=`, `${SESSION}=a.b.c.d.e`, `${SESSION}.0=x`, "=;=;;", "\t"]) {
    const request = new Request(`${ORIGIN}/`, { headers: { Cookie: cookie } });
    assert.equal(await auth.api.getSession(request), null);
  }
});
