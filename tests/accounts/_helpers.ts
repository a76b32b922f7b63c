// Shared fixtures of the linked-account tests: a browser that also POSTs and
// DELETEs with the CSRF token, a log sink, and instances wired to a real
// OpenID provider (oidc-provider with refresh-token rotation) or the mock.
import assert from "node:assert/strict";
import { type Auth, type AuthConfig, createAuth, type LogEntry, memoryStore } from "../../mod.ts";
import type { AccountStore, SessionStore } from "../../mod.ts";
import { Browser, ORIGIN, pathOf } from "../oauth/_flow_helpers.ts";
import {
  completeDevInteractions,
  installOidcProvider,
  type OidcProviderServer,
  startOidcProvider,
} from "../support/oidc_provider.ts";
import { missingTool } from "../support/tools.ts";

export const SECRET = "accounts-test-secret-0123456789-abcdefghijk";
export const REDIRECT_URI = `${ORIGIN}/auth/callback/oidc`;

/** A browser that keeps every response it got, for the "no token anywhere" checks. */
export class AccountBrowser extends Browser {
  responses: { status: number; headers: [string, string][]; body: string }[] = [];

  async record(response: Response): Promise<Response> {
    const body = await response.clone().text();
    this.responses.push({ status: response.status, headers: [...response.headers], body });
    return response;
  }

  override async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return await this.record(await super.get(path, headers));
  }

  /** A CSRF token for this browser's session (sets the cookie). */
  async csrf(): Promise<string> {
    return (await (await this.get("/auth/csrfToken")).json()).csrfToken;
  }

  /** A JSON request with the CSRF token. */
  async send(method: "POST" | "DELETE", path: string, body?: unknown): Promise<Response> {
    const token = await this.csrf();
    const headers = new Headers({ "X-CSRF-Token": token, Cookie: this.cookieHeader() });
    if (body !== undefined) headers.set("Content-Type", "application/json");
    const response = await this.handler(
      new Request(`${ORIGIN}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    this.store(response);
    return await this.record(response);
  }
}

/** Why the real-provider tests cannot run here, or undefined when they can. */
export async function providerUnavailable(): Promise<string | undefined> {
  if (missingTool("node")) return "no node";
  const install = await installOidcProvider();
  if ("skipped" in install) {
    console.log(`skipped: ${install.skipped}`);
    return install.skipped;
  }
  return undefined;
}

/** The provider with rotating refresh tokens, short access tokens and revocation. */
export async function startRefreshProvider(
  accessTokenSeconds = 120,
): Promise<OidcProviderServer & { control: ProviderControl }> {
  const op = await startOidcProvider({
    redirectURIs: [REDIRECT_URI],
    fixture: "tests/support/fixtures/oidc_provider_refresh.mjs",
    env: { OIDC_AT_TTL: String(accessTokenSeconds) },
  });
  return Object.assign(op, { control: providerControl(op.issuer) });
}

/** The fixture's test-only control API. */
export interface ProviderControl {
  counts(): Promise<{ refresh: number; revocation: number }>;
  down(on: boolean): Promise<void>;
  revokeAll(): Promise<void>;
  /** Every access, refresh and ID token the provider issued. */
  tokens(): Promise<string[]>;
}

function providerControl(issuer: string): ProviderControl {
  const call = async (path: string, method = "GET") => {
    const response = await fetch(`${issuer}/__test/${path}`, { method });
    assert.equal(response.status, 200);
    return await response.json();
  };
  return {
    counts: () => call("counts"),
    down: async (on) => void await call(`down?on=${on ? 1 : 0}`, "POST"),
    revokeAll: async () => void await call("revoke-all", "POST"),
    tokens: () => call("tokens"),
  };
}

/** A controllable clock (ms), starting now. */
export class Clock {
  offset = 0;
  advance(seconds: number): void {
    this.offset += seconds * 1000;
  }
  fn = (): number => Date.now() + this.offset;
}

export interface Instance {
  auth: Auth;
  logs: LogEntry[];
  clock: Clock;
}

/** An instance signing in with the real provider as `oidc`. */
export function realProviderAuth(
  op: OidcProviderServer,
  options: {
    accounts?: AccountStore;
    session?: SessionStore;
    clock?: Clock;
    config?: Partial<AuthConfig>;
  } = {},
): Instance {
  const logs: LogEntry[] = [];
  const clock = options.clock ?? new Clock();
  const store = memoryStore();
  const auth = createAuth({
    oauth: [{
      id: "oidc",
      name: "Test ID",
      issuer: op.issuer,
      clientId: op.clientId,
      clientSecret: op.clientSecret,
    }],
    secret: SECRET,
    accounts: { store: options.accounts ?? store },
    session: { store: options.session ?? store },
    logger: { level: "debug", log: (entry: LogEntry) => void logs.push(entry) },
    clock: clock.fn,
    ...options.config,
  } as AuthConfig);
  return { auth, logs, clock };
}

/** Signs in at the real provider as `login`; resolves the browser with its session. */
export async function signInReal(
  auth: Auth,
  login: string,
  browser = new AccountBrowser(auth.handlers.ALL),
): Promise<AccountBrowser> {
  const start = await browser.get("/auth/signIn/oidc?redirectTo=%2Fhome");
  assert.equal(start.status, 302);
  const callback = await completeDevInteractions(start.headers.get("Location")!, {
    redirectURI: REDIRECT_URI,
    login,
  });
  const done = await browser.get(pathOf(callback));
  assert.equal(done.headers.get("Location"), "/home", "signed in");
  return browser;
}

/** The session user's sub. */
export async function subOf(browser: AccountBrowser): Promise<string> {
  const session = await (await browser.get("/auth/session")).json();
  assert.ok(session?.user?.sub, "a session");
  return session.user.sub;
}
