// Two instances in one process, and HTTP and HTTPS requests interleaved,
// never influence each other: names are decided per request, tokens per secret.
import assert from "node:assert/strict";
import {
  assertError,
  assertNoSession,
  Browser,
  HTTPS_ORIGIN,
  makeAuth,
  ORIGIN,
  setCookieNames,
} from "./_helpers.ts";

const SECRET_A = "alpha-secret-0123456789abcdef-0123456789abcdef";
const SECRET_B = "beta-secret-0123456789abcdef-0123456789abcdef";

function instance(prefix: string, secret: string, sub: string) {
  return makeAuth({
    secret,
    cookies: { prefix },
    credentials: { authorize: () => ({ sub, name: prefix }) },
  });
}

function names(prefix: string, secure: boolean) {
  return {
    session: `${secure ? "__Host-" : ""}${prefix}.session_token`,
    csrf: `${secure ? "__Host-" : ""}${prefix}.csrf_token`,
  };
}

const A = { auth: instance("alpha", SECRET_A, "a-user"), prefix: "alpha", sub: "a-user" };
const B = { auth: instance("beta", SECRET_B, "b-user"), prefix: "beta", sub: "b-user" };

/** One browser's journey; returns a description of what went wrong, or null. */
async function journey(
  which: typeof A,
  secure: boolean,
  username: string,
): Promise<string | null> {
  const expected = names(which.prefix, secure);
  const browser = new Browser(which.auth.handlers.ALL, secure ? HTTPS_ORIGIN : ORIGIN);
  const csrf = await browser.fetch("GET", "/auth/csrfToken");
  if (setCookieNames(csrf).join() !== expected.csrf) return `csrf cookie ${setCookieNames(csrf)}`;
  const token = browser.cookies.get(expected.csrf)!;
  const signIn = await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username, password: "p" },
    headers: { "X-CSRF-Token": token },
  });
  const signInNames = setCookieNames(signIn).join();
  if (signIn.status !== 200 || signInNames !== `${expected.session},${expected.csrf}`) {
    return `sign-in ${signIn.status} ${signInNames}`;
  }
  const session = await browser.fetch("GET", "/auth/session");
  const body = await session.json();
  if (session.status !== 200 || body.user.sub !== which.sub) return `session ${session.status}`;
  const out = await browser.fetch("POST", "/auth/signOut", {
    headers: { "X-CSRF-Token": browser.cookies.get(expected.csrf)! },
  });
  const outNames = setCookieNames(out).join();
  if (out.status !== 200 || outNames !== `${expected.session},${expected.csrf}`) {
    return `sign-out ${out.status} ${outNames}`;
  }
  return null;
}

Deno.test("isolation: 200 interleaved journeys on two instances over HTTP and HTTPS stay apart", async () => {
  const jobs: Promise<string | null>[] = [];
  for (let i = 0; i < 200; i++) {
    // A username each: attempts in flight count toward the throttle, even successful ones.
    jobs.push(journey(i % 2 === 0 ? A : B, (i >> 1) % 2 === 0, `user-${i}`));
  }
  const failures = (await Promise.all(jobs)).filter((failure) => failure !== null);
  assert.deepEqual(failures, []);
});

Deno.test("isolation: HTTP and HTTPS csrf requests interleaved each get their own cookie name", async () => {
  const requests = Array.from({ length: 100 }, (_, i) => {
    const secure = i % 3 === 0;
    return A.auth.handlers.ALL(new Request(`${secure ? HTTPS_ORIGIN : ORIGIN}/auth/csrfToken`))
      .then((response) => ({ secure, names: setCookieNames(response) }));
  });
  for (const { secure, names: got } of await Promise.all(requests)) {
    assert.deepEqual(got, [names("alpha", secure).csrf]);
  }
});

Deno.test("isolation: a session token of one instance is refused by the other", async () => {
  for (const [from, to] of [[A, B], [B, A]]) {
    const browser = new Browser(from.auth.handlers.ALL);
    await browser.signIn();
    const token = browser.cookies.get(names(from.prefix, false).session)!;
    const cookie = `${names(to.prefix, false).session}=${token}`;
    const response = await to.auth.handlers.ALL(
      new Request(`${ORIGIN}/auth/session`, { headers: { Cookie: cookie } }),
    );
    await assertNoSession(response);
  }
});

Deno.test("isolation: a CSRF token of one instance is refused by the other", async () => {
  const browser = new Browser(A.auth.handlers.ALL);
  const token = await browser.csrf();
  const cookie = `${names("beta", false).csrf}=${token}`;
  const response = await B.auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/signOut`, {
      method: "POST",
      headers: { Cookie: cookie, "X-CSRF-Token": token },
    }),
  );
  await assertError(response, 403, "invalid_csrf_token");
});

Deno.test("isolation: an instance ignores the other instance's cookie names", async () => {
  const browser = new Browser(A.auth.handlers.ALL);
  await browser.signIn();
  // B receives A's cookies under A's names: for B there is simply no session.
  const response = await B.auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/session`, { headers: { Cookie: browser.cookieHeader() } }),
  );
  await assertNoSession(response);
  assert.deepEqual(response.headers.getSetCookie(), []);
});
