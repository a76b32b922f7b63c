// One instance with every first factor (credentials, an OAuth provider, an OpenID Connect
// provider, a form_post provider, email links and codes) and two-factor on; the same user
// ("user-1", Ada) behind each of them, and helpers to enroll and to give codes.
import assert from "node:assert/strict";
import type { AuthConfig, LogEntry, SessionStore } from "../../mod.ts";
import { createMockProvider, type MockProvider } from "../../testing.ts";
import { decodeBase32 } from "../../src/two_factor/base32.ts";
import { totpCode } from "../../src/two_factor/totp.ts";
import { Outbox } from "../email/_helpers.ts";
import { fetchByOrigin, postedForm } from "../oauth/_flow_helpers.ts";
import { ADA, Browser, Clock, makeAuth, ORIGIN } from "../server/_helpers.ts";

export { ADA, Browser, Clock, ORIGIN, Outbox };

export const TWO_FACTOR_COOKIE = "service-stack.two_factor";
export const SESSION_COOKIE = "service-stack.session_token";

const USERS = [{ sub: ADA.sub, name: "Ada", email: "ada@example.com" }];

/** Options of {@link world}. */
export interface WorldOptions {
  store?: SessionStore;
  config?: Partial<AuthConfig>;
  /** Replaces `twoFactor.load`. */
  load?: (sub: string) => unknown;
  /** Replaces `twoFactor.save`. */
  save?: (sub: string, value: string | null) => void | Promise<void>;
  clock?: Clock;
}

/** An instance, its providers, the app's user records and what was logged. */
export interface World {
  auth: ReturnType<typeof makeAuth>;
  clock: Clock;
  records: Map<string, string | null>;
  outbox: Outbox;
  logs: LogEntry[];
  query: MockProvider;
  oidc: MockProvider;
  post: MockProvider;
  browser(): Browser;
}

/** Builds a world; the clock starts at the real time (the providers' tokens use it too). */
export function world(options: WorldOptions = {}): World {
  const clock = options.clock ?? new Clock(Math.floor(Date.now() / 30_000) * 30_000 + 5_000);
  const records = new Map<string, string | null>();
  const outbox = new Outbox();
  const logs: LogEntry[] = [];
  const query = createMockProvider({ users: USERS, clock: clock.fn });
  const oidc = createMockProvider({
    id: "oidc",
    baseURL: "http://oidc.localhost",
    users: USERS,
    oidc: true,
    clock: clock.fn,
  });
  const post = createMockProvider({
    id: "post",
    baseURL: "http://post.localhost",
    users: USERS,
    responseMode: "form_post",
    clock: clock.fn,
  });
  const auth = makeAuth({
    oauth: [query.provider, oidc.provider, { ...post.provider, responseMode: "form_post" }],
    fetch: fetchByOrigin({
      "http://mock-oauth.localhost": query.fetch,
      "http://oidc.localhost": oidc.fetch,
      "http://post.localhost": post.fetch,
    }),
    clock: clock.fn,
    logger: { level: "debug", log: (entry: LogEntry) => void logs.push(entry) },
    email: {
      send: outbox.send,
      findUser: (email: string) => email.toLowerCase() === ADA.email ? ADA : null,
    },
    twoFactor: {
      load: (sub: string) =>
        (options.load ? options.load(sub) : records.get(sub) ?? null) as string,
      save: options.save ?? ((sub: string, value: string | null) => void records.set(sub, value)),
      issuer: "Test App",
    },
    session: options.store ? { store: options.store } : undefined,
    ...options.config,
  } as Partial<AuthConfig>);
  return {
    auth,
    clock,
    records,
    outbox,
    logs,
    query,
    oidc,
    post,
    browser: () => new Browser(auth.handlers.ALL),
  };
}

/** The current code of a base32 secret at the world's time. */
export async function codeAt(w: World, secret: string, offsetSteps = 0): Promise<string> {
  return await totpCode(decodeBase32(secret), w.clock.now / 1000 + offsetSteps * 30);
}

/** Moves to the next 30-second step, so that a fresh code can be given. */
export function nextStep(w: World): void {
  w.clock.advance(30);
}

/** POSTs JSON with a fresh CSRF token. */
export async function post(
  browser: Browser,
  path: string,
  json?: unknown,
): Promise<Response> {
  const csrf = await browser.csrf();
  return await browser.fetch("POST", path, { json, headers: { "X-CSRF-Token": csrf } });
}

/** Turns two-factor on for Ada through the routes; returns her secret and backup codes. */
export async function enroll(w: World): Promise<{ secret: string; backupCodes: string[] }> {
  const browser = w.browser();
  const signedIn = await browser.signIn();
  assert.equal(signedIn.status, 200);
  const started = await post(browser, "/auth/twoFactor/enroll");
  assert.equal(started.status, 200, await started.clone().text());
  const { secret } = await started.json();
  const confirmed = await post(browser, "/auth/twoFactor/confirm", {
    code: await codeAt(w, secret),
  });
  assert.equal(confirmed.status, 200, await confirmed.clone().text());
  const { backupCodes } = await confirmed.json();
  nextStep(w);
  return { secret, backupCodes };
}

/** The session the browser has now (`GET /session`), or null. */
export async function sessionOf(browser: Browser): Promise<{ user: { sub: string } } | null> {
  return await (await browser.fetch("GET", "/auth/session")).json();
}

/** Asserts that a first factor made no session and left a pending `two_factor` cookie. */
export async function assertPending(browser: Browser, response: Response): Promise<void> {
  const names = response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf("=")));
  assert.ok(!names.includes(SESSION_COOKIE), `a session cookie was set: ${names}`);
  assert.ok(browser.cookies.has(TWO_FACTOR_COOKIE), "no two_factor cookie");
  assert.equal(await sessionOf(browser), null);
}

/** Gives the second step as JSON; returns the response. */
export async function verify(
  browser: Browser,
  answer: Record<string, unknown>,
): Promise<Response> {
  return await post(browser, "/auth/twoFactor/verify", answer);
}

/** Runs an OAuth sign-in with a provider of the world up to its callback's response. */
export async function oauthCallback(
  w: World,
  browser: Browser,
  id: "mock" | "oidc" | "post",
): Promise<Response> {
  const started = await browser.fetch("GET", `/auth/signIn/${id}?redirectTo=%2Fhome`);
  assert.equal(started.status, 302);
  const authorizeURL = started.headers.get("Location")!;
  const provider = id === "mock" ? w.query : id === "oidc" ? w.oidc : w.post;
  const answer = await provider.fetch(authorizeURL);
  if (id === "post") {
    const { fields } = await postedForm(answer);
    return await browser.fetch("POST", `/auth/callback/${id}`, {
      form: Object.fromEntries(fields),
      headers: { Origin: "http://post.localhost" },
    });
  }
  assert.equal(answer.status, 302);
  const callback = new URL(answer.headers.get("Location")!);
  return await browser.fetch("GET", `${callback.pathname}${callback.search}`);
}
