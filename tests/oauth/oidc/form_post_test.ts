// `responseMode: "form_post"`: the provider posts the authorization response
// from its own site to `POST /callback/:oauth`. The route takes any Origin
// (state is its CSRF check), only for form_post providers; their flow cookies
// are SameSite=None over HTTPS so the cross-site POST carries them.
import assert from "node:assert/strict";
import { type AuthConfig, createAuth, memoryStore } from "../../../mod.ts";
import { contextOf } from "../../../src/create_auth.ts";
import { createHandler } from "../../../src/handler.ts";
import { createMockProvider, type MockProvider } from "../../../testing.ts";
import {
  assertFlowCookiesKept,
  assertNoSession,
  clearedCookies,
  postedForm,
  SECRET,
  setCookies,
} from "../_flow_helpers.ts";

const APP = "https://app.example";
const MOCK_ORIGIN = "http://mock-oauth.localhost";

interface Setup {
  mock: MockProvider;
  auth: ReturnType<typeof createAuth>;
  cookies: Map<string, string>;
}

function setup(options: { baseURL?: string; extra?: object[]; store?: boolean } = {}): Setup {
  const mock = createMockProvider();
  const auth = createAuth({
    oauth: [{ ...mock.provider, responseMode: "form_post" }, ...options.extra ?? []],
    secret: SECRET,
    logger: false,
    fetch: mock.fetch,
    baseURL: options.baseURL ?? APP,
    ...(options.store ? { session: { store: memoryStore() } } : {}),
  } as AuthConfig);
  return { mock, auth, cookies: new Map() };
}

function cookieHeader(cookies: Map<string, string>): string {
  return [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** `GET /auth/signIn/:id` landing on /home; stores the flow cookies, returns the response. */
async function start(s: Setup, id = "mock", origin = APP): Promise<Response> {
  const response = await s.auth.handlers.ALL(
    new Request(`${origin}/auth/signIn/${id}?redirectTo=%2Fhome`),
  );
  for (const [name, value] of setCookies(response)) s.cookies.set(name, value);
  return response;
}

/** The mock's answer to the authorization request, as the fields it would post. */
async function authorize(s: Setup, signIn: Response): Promise<URLSearchParams> {
  const answer = await s.mock.fetch(signIn.headers.get("Location")!);
  // The mock answers response_mode=form_post with a page whose form posts the fields.
  assert.equal(answer.status, 200);
  return (await postedForm(answer)).fields;
}

/** The provider page's cross-site POST to the callback. */
function post(
  s: Setup,
  body: BodyInit,
  options: { origin?: string | null; type?: string; id?: string; app?: string } = {},
): Promise<Response> {
  const headers = new Headers({
    "Content-Type": options.type ?? "application/x-www-form-urlencoded",
    Cookie: cookieHeader(s.cookies),
  });
  if (options.origin !== null) headers.set("Origin", options.origin ?? MOCK_ORIGIN);
  const url = `${options.app ?? APP}/auth/callback/${options.id ?? "mock"}`;
  return s.auth.handlers.ALL(new Request(url, { method: "POST", headers, body }));
}

function assertSignedIn(response: Response): void {
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("Location"), "/home");
  assert.ok(setCookies(response).has("__Host-service-stack.session_token"));
}

function assertErrorLanding(response: Response, error: string): void {
  assert.equal(response.status, 302);
  const location = new URL(response.headers.get("Location")!, APP);
  assert.equal(location.pathname, "/home");
  assert.equal(location.searchParams.get("error"), error);
  assertNoSession(response);
}

// The authorization request and the flow cookies

Deno.test("a form_post provider's authorization request asks for response_mode=form_post", async () => {
  const s = setup();
  const location = new URL((await start(s)).headers.get("Location")!);
  assert.equal(location.searchParams.get("response_mode"), "form_post");
});

Deno.test("over HTTPS a form_post provider's flow cookies are SameSite=None; Secure; __Host-", async () => {
  const s = setup();
  const lines = (await start(s)).headers.getSetCookie();
  assert.equal(lines.length, 4);
  for (const line of lines) {
    assert.match(line, /^__Host-service-stack\./);
    assert.match(line, /; Secure/);
    assert.match(line, /; SameSite=None/);
    assert.match(line, /; HttpOnly/);
  }
});

Deno.test("a query provider's flow cookies stay SameSite=Lax beside a form_post provider", async () => {
  const other = createMockProvider({ id: "other", baseURL: "http://other.localhost" });
  const s = setup({ extra: [other.provider] });
  const lines = (await start(s, "other")).headers.getSetCookie();
  assert.equal(lines.length, 4);
  for (const line of lines) assert.match(line, /; SameSite=Lax/);
});

Deno.test("over plain HTTP SameSite=None is impossible: the flow cookies stay Lax", async () => {
  const s = setup({ baseURL: "http://localhost:8000" });
  const lines = (await start(s, "mock", "http://localhost:8000")).headers.getSetCookie();
  for (const line of lines) {
    assert.match(line, /; SameSite=Lax/);
    assert.doesNotMatch(line, /Secure/);
  }
});

// The cross-site POST

Deno.test("the provider's cross-site POST, Origin its own site, completes the sign-in", async () => {
  const s = setup();
  const fields = await authorize(s, await start(s));
  assert.equal(fields.has("code"), true);
  const response = await post(s, fields);
  assertSignedIn(response);
  for (const name of s.cookies.keys()) assert.ok(clearedCookies(response).has(name), name);
});

Deno.test("a POST with Origin: null (after cross-origin redirects) completes the sign-in", async () => {
  const s = setup();
  const fields = await authorize(s, await start(s));
  assertSignedIn(await post(s, fields, { origin: "null" }));
});

Deno.test("a POST without an Origin header completes the sign-in", async () => {
  const s = setup();
  const fields = await authorize(s, await start(s));
  assertSignedIn(await post(s, fields, { origin: null }));
});

Deno.test("the cross-site POST gets no CORS grant", async () => {
  const s = setup();
  const response = await post(s, await authorize(s, await start(s)));
  assert.equal(response.headers.get("Access-Control-Allow-Origin"), null);
  assert.equal(response.headers.get("Access-Control-Allow-Credentials"), null);
});

Deno.test("a POST from another site without the flow cookies is a 400 and no session", async () => {
  const s = setup();
  const fields = await authorize(s, await start(s));
  s.cookies.clear();
  const response = await post(s, fields, { origin: "https://evil.example" });
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error, "invalid_request");
  assertNoSession(response);
});

Deno.test("a POST whose state is not the flow's lands on the error redirect", async () => {
  const s = setup();
  const fields = await authorize(s, await start(s));
  fields.set("state", "forged-state-forged-state-forged-state-forge");
  assertErrorLanding(await post(s, fields, { origin: "https://evil.example" }), "invalid_request");
  assert.equal(s.mock.requests.filter((r) => r.endpoint === "token").length, 0);
});

Deno.test("a forged cross-site POST with another state leaves the flow alone: the real POST still signs in", async () => {
  for (const store of [false, true]) {
    const s = setup({ store });
    const fields = await authorize(s, await start(s));
    for (
      const forged of [
        new URLSearchParams({ state: "forged-state-forged-state-forged-state-forge", code: "x" }),
        new URLSearchParams({ state: "forged", error: "access_denied" }),
        new URLSearchParams({ code: "x" }),
      ]
    ) {
      const response = await post(s, forged, { origin: "https://evil.example" });
      assertErrorLanding(response, "invalid_request");
      assertFlowCookiesKept(response);
    }
    const real = await post(s, fields);
    assertSignedIn(real);
    for (const name of s.cookies.keys()) assert.ok(clearedCookies(real).has(name), name);
  }
});

Deno.test("a POST whose body never ends is answered after the body deadline and leaves the flow alone", async () => {
  const s = setup();
  const fields = await authorize(s, await start(s));
  const handler = createHandler({ ...contextOf(s.auth), bodyTimeoutMs: 50 });
  const stalled = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("state="));
    },
  });
  const request = new Request(`${APP}/auth/callback/mock`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: cookieHeader(s.cookies),
      Origin: MOCK_ORIGIN,
    },
    body: stalled,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const response = await Promise.race([
    handler(request),
    new Promise<never>((_, reject) => timer = setTimeout(() => reject(new Error("held")), 1_000)),
  ]).finally(() => clearTimeout(timer));
  assertErrorLanding(response, "invalid_request");
  assertFlowCookiesKept(response);
  assertSignedIn(await post(s, fields));
});

Deno.test("a POST with the state repeated is refused", async () => {
  const s = setup();
  const fields = await authorize(s, await start(s));
  fields.append("state", fields.get("state")!);
  assertErrorLanding(await post(s, fields), "invalid_request");
});

Deno.test("the response fields are read from the body only, never from the query", async () => {
  const s = setup();
  const fields = await authorize(s, await start(s));
  const headers = new Headers({
    "Content-Type": "application/x-www-form-urlencoded",
    Cookie: cookieHeader(s.cookies),
  });
  const response = await s.auth.handlers.ALL(
    new Request(`${APP}/auth/callback/mock?${fields}`, { method: "POST", headers, body: "" }),
  );
  assertErrorLanding(response, "invalid_request");
});

Deno.test("a JSON body is refused: the callback takes a form", async () => {
  const s = setup();
  const fields = await authorize(s, await start(s));
  const body = JSON.stringify(Object.fromEntries(fields));
  assertErrorLanding(await post(s, body, { type: "application/json" }), "invalid_request");
});

Deno.test("a body over 64 KiB is refused", async () => {
  const s = setup();
  const fields = await authorize(s, await start(s));
  fields.set("padding", "x".repeat(65 * 1024));
  assertErrorLanding(await post(s, fields), "invalid_request");
});

Deno.test("a provider error posted back lands on the error redirect", async () => {
  const s = setup();
  const fields = await authorize(s, await start(s));
  const error = new URLSearchParams({ state: fields.get("state")!, error: "access_denied" });
  assertErrorLanding(await post(s, error), "access_denied");
});

Deno.test("Apple's unsigned user field never reaches the session", async () => {
  const s = setup();
  const fields = await authorize(s, await start(s));
  fields.set("user", JSON.stringify({ name: { firstName: "Mallory", lastName: "Evil" } }));
  const response = await post(s, fields);
  assertSignedIn(response);
  const session = await s.auth.handlers.ALL(
    new Request(`${APP}/auth/session`, {
      headers: { Cookie: cookieHeader(new Map(setCookies(response))) },
    }),
  );
  assert.equal((await session.json()).user.name, "Ada Lovelace");
});

// Only for form_post providers

Deno.test("POST /callback for a query provider is 405 with Allow: GET, and clears nothing", async () => {
  const other = createMockProvider({ id: "other", baseURL: "http://other.localhost" });
  const s = setup({ extra: [other.provider] });
  await start(s, "other");
  const response = await post(s, "code=x&state=y", { id: "other", origin: "https://evil.example" });
  assert.equal(response.status, 405);
  assert.equal(response.headers.get("Allow"), "GET");
  assert.deepEqual(response.headers.getSetCookie(), []);
});

Deno.test("without a form_post provider POST /callback is not served (405, Allow: GET)", async () => {
  const mock = createMockProvider();
  const auth = createAuth({ oauth: [mock.provider], secret: SECRET, logger: false });
  const response = await auth.handlers.ALL(
    new Request("http://localhost:8000/auth/callback/mock", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "code=x&state=y",
    }),
  );
  assert.equal(response.status, 405);
  assert.equal(response.headers.get("Allow"), "GET");
});

Deno.test("POST /callback for an unknown provider is a 400", async () => {
  const s = setup();
  const response = await post(s, "code=x&state=y", { id: "nobody" });
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error, "invalid_request");
});

Deno.test("other POST routes still refuse an untrusted Origin", async () => {
  const s = setup();
  const response = await s.auth.handlers.ALL(
    new Request(`${APP}/auth/signOut`, { method: "POST", headers: { Origin: MOCK_ORIGIN } }),
  );
  assert.equal(response.status, 403);
});
