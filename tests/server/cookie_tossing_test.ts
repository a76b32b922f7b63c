// Cookie tossing: a sibling subdomain plants a second cookie of the same name
// (Domain=parent). A name sent twice, or an unchunked session cookie beside
// chunks, is no cookie at all: neither copy is ever picked.
import assert from "node:assert/strict";
import { createMockProvider } from "../../testing.ts";
import { assertError, assertNoSession, Browser, HTTPS_ORIGIN, makeAuth } from "./_helpers.ts";

const SESSION = "service-stack.session_token";
const CSRF = "service-stack.csrf_token";

async function sessionCookie(auth: ReturnType<typeof makeAuth>, username: string): Promise<string> {
  const browser = new Browser(auth.handlers.ALL);
  const token = await browser.csrf();
  await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username, password: "pw" },
    headers: { "X-CSRF-Token": token },
  });
  return browser.cookies.get(SESSION)!;
}

function anyone() {
  return makeAuth({
    credentials: { authorize: ({ username }) => ({ sub: username, name: username }) },
  });
}

function getSession(auth: ReturnType<typeof makeAuth>, cookie: string): Promise<Response> {
  return auth.handlers.ALL(
    new Request("http://localhost:8000/auth/session", { headers: { Cookie: cookie } }),
  );
}

Deno.test("tossing: the attacker's session cookie beside the victim's is no session, in either order", async () => {
  const auth = anyone();
  const eve = await sessionCookie(auth, "eve");
  const ada = await sessionCookie(auth, "ada");
  for (
    const cookie of [`${SESSION}=${eve}; ${SESSION}=${ada}`, `${SESSION}=${ada}; ${SESSION}=${eve}`]
  ) {
    await assertNoSession(await getSession(auth, cookie));
    const request = new Request("http://localhost:8000/", { headers: { Cookie: cookie } });
    assert.equal(await auth.api.getSession(request), null);
  }
});

Deno.test("tossing: a planted duplicate with junk or an empty value also voids the session", async () => {
  const auth = anyone();
  const ada = await sessionCookie(auth, "ada");
  for (const planted of ["", "junk", ada]) {
    await assertNoSession(await getSession(auth, `${SESSION}=${planted}; ${SESSION}=${ada}`));
  }
});

Deno.test("tossing: an unchunked session cookie beside chunks is no session, either way round", async () => {
  const auth = anyone();
  const eve = await sessionCookie(auth, "eve");
  const ada = await sessionCookie(auth, "ada");
  const half = Math.floor(ada.length / 2);
  const chunks = `${SESSION}.0=${ada.slice(0, half)}; ${SESSION}.1=${ada.slice(half)}`;
  await assertNoSession(await getSession(auth, `${SESSION}=${eve}; ${chunks}`));
  await assertNoSession(await getSession(auth, `${chunks}; ${SESSION}=${eve}`));
  // The chunks alone still read.
  assert.equal((await (await getSession(auth, chunks)).json()).user.sub, "ada");
});

Deno.test("tossing: a duplicated chunk voids the chunked session", async () => {
  const auth = anyone();
  const ada = await sessionCookie(auth, "ada");
  const half = Math.floor(ada.length / 2);
  const cookie = `${SESSION}.0=${ada.slice(0, half)}; ${SESSION}.0=x; ${SESSION}.1=${
    ada.slice(half)
  }`;
  await assertNoSession(await getSession(auth, cookie));
});

Deno.test("tossing: a duplicated CSRF cookie is refused with 403 even when the header matches one", async () => {
  const auth = anyone();
  const browser = new Browser(auth.handlers.ALL);
  const token = await browser.csrf();
  const other = await new Browser(auth.handlers.ALL).csrf();
  for (
    const cookie of [`${CSRF}=${token}; ${CSRF}=${other}`, `${CSRF}=${other}; ${CSRF}=${token}`]
  ) {
    const response = await auth.handlers.ALL(
      new Request("http://localhost:8000/auth/signOut", {
        method: "POST",
        headers: { Cookie: cookie, "X-CSRF-Token": token },
      }),
    );
    await assertError(response, 403, "invalid_csrf_token");
  }
});

Deno.test("tossing: a duplicated OAuth state cookie fails the callback", async () => {
  const mock = createMockProvider();
  const auth = makeAuth({ oauth: [mock.provider], fetch: mock.fetch });
  const browser = new Browser(auth.handlers.ALL);
  const start = await browser.fetch("GET", `/auth/signIn/${mock.provider.id}`);
  const consent = await mock.fetch(start.headers.get("Location")!);
  const back = new URL(consent.headers.get("Location")!);
  const state = "service-stack.state";
  const cookie = `${browser.cookieHeader()}; ${state}=${browser.cookies.get(state)}`;
  const response = await auth.handlers.ALL(
    new Request(`http://localhost:8000${back.pathname}${back.search}`, {
      headers: { Cookie: cookie },
    }),
  );
  await assertError(response, 400, "invalid_request");
  assert.equal(
    response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION}=`)),
    false,
  );
});

Deno.test("tossing: over HTTPS every cookie the service sets is __Host- (no Domain can shadow it)", async () => {
  const mock = createMockProvider();
  const auth = makeAuth({ oauth: [mock.provider], fetch: mock.fetch });
  const browser = new Browser(auth.handlers.ALL, HTTPS_ORIGIN);
  const lines = [
    ...(await browser.fetch("GET", `/auth/signIn/${mock.provider.id}`)).headers.getSetCookie(),
    ...(await browser.signIn()).headers.getSetCookie(),
  ];
  assert.ok(lines.length >= 6);
  for (const line of lines) {
    assert.match(line, /^__Host-/);
    assert.doesNotMatch(line, /Domain=/i);
    assert.match(line, /; Path=\/;/);
  }
});
