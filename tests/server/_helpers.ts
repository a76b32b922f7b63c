// Shared fixtures for the server tests: an instance factory and a tiny
// browser-like cookie jar that drives the handlers as functions.
import { type AuthConfig, createAuth } from "../../mod.ts";
import type { User } from "../../mod.ts";

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
    credentials: {
      authorize: ({ username, password }) =>
        username === "ada" && password === "correct horse" ? ADA : null,
    },
    signUp: {
      onCreateUser: (payload) => ({ sub: "new-user", name: String(payload.name ?? "New") }),
    },
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
