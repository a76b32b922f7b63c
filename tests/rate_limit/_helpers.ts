// Shared fixtures for the rate-limit tests: an instance with every limited route of this
// branch, requests from a given address, and a log that keeps what was logged.
import { type AuthConfig, type ClientInfo, createAuth, type LogEntry } from "../../mod.ts";
import { memoryStore } from "../../mod.ts";

export const SECRET = "rate-limit-test-secret-0123456789-abcdef";
export const ORIGIN = "http://localhost:8000";

/** A controllable clock in milliseconds. */
export class Clock {
  now = Date.UTC(2026, 0, 1);
  advance(seconds: number): void {
    this.now += seconds * 1000;
  }
  fn = (): number => this.now;
}

/** The handlers' second argument for a client at `hostname`. */
export function from(hostname: string): ClientInfo {
  return { remoteAddr: { hostname } };
}

/** An instance with credentials, sign-up, email, reset, passkeys, two-factor and one provider. */
export function fullAuth(overrides: Partial<AuthConfig> = {}, log: LogEntry[] = []) {
  return createAuth({
    oauth: [{ id: "github", clientId: "id", clientSecret: "secret" }],
    secret: SECRET,
    env: {},
    // A clock of its own: without session.store, instances on one clock share the process's
    // counts; each test instance starts from zero.
    clock: () => Date.now(),
    logger: { log: (entry) => void log.push(entry) },
    credentials: {
      authorize: ({ username, password }) =>
        username === "ada" && password === "correct horse" ? { sub: "1", name: "Ada" } : null,
      resetPassword: () => {},
    },
    signUp: { onCreateUser: () => ({ sub: "2", name: "New" }) },
    email: { send: () => {}, findUser: () => null },
    passkeys: { store: memoryStore(), findUser: () => null },
    twoFactor: { load: () => null, save: () => {} },
    ...overrides,
  } as AuthConfig);
}

/** A request to `{ORIGIN}/auth/{path}` (a JSON POST unless `init` says otherwise). */
export function request(path: string, init: RequestInit = {}): Request {
  return new Request(`${ORIGIN}/auth/${path}`, {
    method: "POST",
    ...init,
    headers: { "Content-Type": "application/json", ...init.headers as Record<string, string> },
    body: init.method === "GET" || init.method === "OPTIONS" ? undefined : init.body ?? "{}",
  });
}

/** The statuses of `count` requests made one after another. */
export async function statuses(
  count: number,
  send: () => Promise<Response>,
): Promise<number[]> {
  const found: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await send();
    await response.body?.cancel();
    found.push(response.status);
  }
  return found;
}
