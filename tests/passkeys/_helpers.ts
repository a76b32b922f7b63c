// An instance with passkeys on https://example.com (the software authenticator's RP), a
// browser for it, and the two ceremonies through the routes.
import type { AuthConfig, LogEntry, PasskeyStore, User } from "../../mod.ts";
import { memoryStore } from "../../mod.ts";
import {
  type Alg,
  createAuthenticator,
  type JsonObject,
  ORIGIN,
  type SoftAuthenticator,
} from "../webauthn/_authenticator.ts";
import { ADA, Browser, makeAuth } from "../server/_helpers.ts";

export { ADA, Browser, ORIGIN };

export const GRACE: User = { sub: "user-2", name: "Grace", email: "grace@example.com" };
const USERS = new Map([[ADA.sub, ADA], [GRACE.sub, GRACE]]);

export interface PasskeyAuthOptions {
  store?: PasskeyStore;
  config?: Partial<AuthConfig>;
  findUser?: (sub: string) => User | null;
  passkeys?: Record<string, unknown>;
}

/** An instance with passkeys, credentials for ada and grace, and a log that keeps every entry. */
export function passkeyAuth(options: PasskeyAuthOptions = {}) {
  const store = options.store ?? memoryStore();
  const logs: LogEntry[] = [];
  const signIns: { provider: string; sub: string }[] = [];
  const auth = makeAuth({
    baseURL: ORIGIN,
    logger: { level: "debug", log: (entry: LogEntry) => void logs.push(entry) },
    credentials: {
      authorize: ({ username, password }) =>
        password === "correct horse" ? (username === "grace" ? GRACE : ADA) : null,
    },
    passkeys: {
      store,
      findUser: options.findUser ?? ((sub: string) => USERS.get(sub) ?? null),
      ...options.passkeys,
    },
    callbacks: {
      signIn: ({ user, provider }) => {
        signIns.push({ provider, sub: user.sub });
        return user;
      },
    },
    ...options.config,
  } as Partial<AuthConfig>);
  return { auth, store, logs, signIns };
}

/** A browser on the passkey origin. */
export function browserFor(auth: { handlers: { ALL: (r: Request) => Promise<Response> } }) {
  return new Browser(auth.handlers.ALL, ORIGIN);
}

/** Signs `browser` in with a password as `username` (ada by default). */
export async function passwordSignIn(browser: Browser, username = "ada"): Promise<void> {
  const token = await browser.csrf();
  const response = await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username, password: "correct horse" },
    headers: { "X-CSRF-Token": token },
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
  await response.body?.cancel();
}

/** POSTs JSON with the browser's CSRF token. */
export async function post(browser: Browser, path: string, json?: unknown): Promise<Response> {
  const token = await browser.csrf();
  return await browser.fetch("POST", path, {
    json,
    headers: { "X-CSRF-Token": token },
  });
}

/** `POST /passkey/register/options`: the options (throws on another status). */
export async function registerOptions(browser: Browser): Promise<JsonObject> {
  const response = await post(browser, "/auth/passkey/register/options", {});
  if (response.status !== 200) {
    throw new Error(`options: ${response.status} ${await response.text()}`);
  }
  return await response.json();
}

/** `POST /passkey/signIn/options`: the options. */
export async function signInOptions(browser: Browser): Promise<JsonObject> {
  const response = await post(browser, "/auth/passkey/signIn/options", {});
  if (response.status !== 200) {
    throw new Error(`options: ${response.status} ${await response.text()}`);
  }
  return await response.json();
}

/**
 * Registers a new software authenticator of `alg` for the signed-in user:
 * options, then the response; returns the authenticator (its user handle
 * the one the options gave) and the route's answer.
 */
export async function registerNew(
  browser: Browser,
  alg: Alg = -7,
  setup: { counter?: number; flags?: number } = {},
): Promise<{ authenticator: SoftAuthenticator; response: Response; options: JsonObject }> {
  const options = await registerOptions(browser);
  const user = options.user as { id: string };
  const { flags, ...created } = setup;
  const authenticator = await createAuthenticator(alg, { ...created, userHandle: user.id });
  const json = await authenticator.register({ challenge: options.challenge as string, flags });
  const response = await post(browser, "/auth/passkey/register", {
    response: json,
    name: "Laptop",
  });
  return { authenticator, response, options };
}

/** Options, then an assertion by `authenticator` (with `knobs`), through `POST /passkey/signIn`. */
export async function passkeySignIn(
  browser: Browser,
  authenticator: SoftAuthenticator,
  knobs: Record<string, unknown> = {},
): Promise<Response> {
  const options = await signInOptions(browser);
  const json = await authenticator.authenticate({
    challenge: options.challenge as string,
    ...knobs,
  });
  return await post(browser, "/auth/passkey/signIn", { response: json });
}

/** Every log line as text, for checks that secrets never reach it. */
export function logText(logs: LogEntry[]): string {
  return JSON.stringify(logs);
}
