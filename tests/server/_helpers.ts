// Shared fixtures for the server tests: an instance factory and a tiny
// browser-like cookie jar that drives the handlers as functions.
import assert from "node:assert/strict";
import { type AuthConfig, createAuth } from "../../mod.ts";
import type { StandardSchemaV1, User } from "../../mod.ts";

export const SECRET = "test-secret-0123456789abcdef-0123456789abcdef";
export const ORIGIN = "http://localhost:8000";
export const HTTPS_ORIGIN = "https://app.example.com";

export const ADA: User = { sub: "user-1", name: "Ada", email: "ada@example.com" };

/** A controllable clock in milliseconds. */
export class Clock {
  now: number;
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.now = start;
  }
  advance(seconds: number): void {
    this.now += seconds * 1000;
  }
  fn = (): number => this.now;
}

/** An instance with credentials (ada / correct horse) and sign-up configured. */
export function makeAuth(overrides: Partial<AuthConfig> = {}) {
  return createAuth({
    oauth: [],
    secret: SECRET,
    logger: false,
    // A clock of its own: without session.store, instances on one clock share the process's
    // throttle and one-time marks; each test instance starts from a clean count.
    clock: () => Date.now(),
    credentials: {
      authorize: ({ username, password }) =>
        username === "ada" && password === "correct horse" ? ADA : null,
    },
    signUp: {
      onCreateUser: (payload) => ({ sub: "new-user", name: String(payload.name ?? "New") }),
    },
    // An empty env keeps the tests hermetic (no SALT, DEBUG or LOG_LEVEL from the machine).
    env: {},
    ...overrides,
  } as AuthConfig);
}

type Handler = (request: Request) => Promise<Response>;

/** A browser: keeps cookies per Set-Cookie, sends them back, same origin by default. */
export class Browser {
  cookies = new Map<string, string>();
  constructor(readonly handler: Handler, readonly origin = ORIGIN) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";").map((part) => part.trim());
      const index = pair.indexOf("=");
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      const expired = attributes.some((attr) => /^max-age=0$/i.test(attr));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async fetch(
    method: string,
    path: string,
    init: { json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0 && !headers.has("Cookie")) headers.set("Cookie", this.cookieHeader());
    let body: string | undefined;
    if (init.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(init.json);
    } else if (init.form !== undefined) {
      headers.set("Content-Type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(init.form).toString();
    }
    const response = await this.handler(
      new Request(`${this.origin}${path}`, { method, headers, body }),
    );
    this.store(response);
    return response;
  }

  /** Fetches a CSRF token (and its cookie). */
  async csrf(): Promise<string> {
    const response = await this.fetch("GET", "/auth/csrfToken");
    const { csrfToken } = await response.json();
    return csrfToken;
  }

  /** Signs in as ada through the credentials route. */
  async signIn(): Promise<Response> {
    const token = await this.csrf();
    return this.fetch("POST", "/auth/signIn/credentials", {
      json: { username: "ada", password: "correct horse" },
      headers: { "X-CSRF-Token": token },
    });
  }
}

/** Every ErrorType code. */
export const ERROR_CODES: ReadonlySet<string> = new Set([
  "invalid_request",
  "unauthorized_client",
  "access_denied",
  "unsupported_response_type",
  "invalid_scope",
  "server_error",
  "temporarily_unavailable",
  "invalid_client",
  "invalid_grant",
  "unsupported_grant_type",
  "invalid_session_token",
  "invalid_csrf_token",
  "invalid_redirect_to",
]);

/**
 * Asserts an RFC 6749 error response: the status, exactly `{ error,
 * error_description }` with the code, JSON and `Cache-Control: no-store`.
 */
/**
 * Asserts the answer of `GET /session` without a valid session: 200 with a
 * JSON `null` body, never cached.
 */
export async function assertNoSession(response: Response): Promise<void> {
  const text = await response.text();
  assert.equal(response.status, 200, `expected 200 null, got ${response.status} ${text}`);
  assert.equal(text, "null");
  assert.equal(response.headers.get("Content-Type")?.split(";")[0], "application/json");
  assert.equal(response.headers.get("Cache-Control"), "no-store");
}

export async function assertError(
  response: Response,
  status: number,
  code: string,
): Promise<{ error: string; error_description: string }> {
  const text = await response.text();
  assert.equal(
    response.status,
    status,
    `expected ${status} ${code}, got ${response.status} ${text}`,
  );
  assert.equal(response.headers.get("Content-Type")?.split(";")[0], "application/json");
  assert.equal(response.headers.get("Cache-Control"), "no-store");
  const body = JSON.parse(text);
  assert.deepEqual(Object.keys(body).sort(), ["error", "error_description"]);
  assert.equal(body.error, code);
  assert.equal(typeof body.error_description, "string");
  assert.ok(body.error_description.length > 0);
  return body;
}

/** The value of the `Set-Cookie` line named `name`, or `undefined`. */
export function setCookieValue(response: Response, name: string): string | undefined {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    const index = pair.indexOf("=");
    if (pair.slice(0, index) === name) return pair.slice(index + 1);
  }
  return undefined;
}

/** The `Set-Cookie` line for `name`, or `undefined`. */
export function setCookieLine(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

/** The names of every `Set-Cookie` line, in order. */
export function setCookieNames(response: Response): string[] {
  return response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf("=")));
}

/** A user with an extra `bio` field, as `bioSchema` validates it. */
export interface BioUser extends User {
  bio?: string;
}

/**
 * A hand-written Standard Schema v1 object: `sub` (string, required), and
 * optional string `name`, `email`, `image` and `bio` (at most `maxBio`
 * characters); any other key is an issue.
 */
export function bioSchema(maxBio = 20_000): StandardSchemaV1<unknown, BioUser> {
  const fields = new Set(["sub", "name", "email", "image", "bio"]);
  return {
    "~standard": {
      version: 1,
      vendor: "hand-written",
      validate(value: unknown) {
        if (typeof value !== "object" || value === null || Array.isArray(value)) {
          return { issues: [{ message: "expected an object" }] };
        }
        const input = value as Record<string, unknown>;
        const issues: { message: string; path: string[] }[] = [];
        const out: Record<string, string> = {};
        for (const [key, field] of Object.entries(input)) {
          if (!fields.has(key)) {
            issues.push({ message: "unknown field", path: [key] });
          } else if (typeof field !== "string") {
            issues.push({ message: "expected a string", path: [key] });
          } else if (key === "bio" && field.length > maxBio) {
            issues.push({ message: "too long", path: [key] });
          } else {
            out[key] = field;
          }
        }
        if (typeof input.sub !== "string") issues.push({ message: "required", path: ["sub"] });
        return issues.length > 0 ? { issues } : { value: out as unknown as BioUser };
      },
    },
  };
}
