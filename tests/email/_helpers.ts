// An instance with email configured and an outbox that keeps what `send` received.
import type { AuthConfig, EmailConfig, EmailMessage, SessionStore } from "../../mod.ts";
import { ADA, Browser, makeAuth } from "../server/_helpers.ts";

export { ADA, Browser };

/** The users the fixtures know, by address. */
export const USERS = new Map([["ada@example.com", ADA]]);

/** What `send` received, in order. */
export class Outbox {
  messages: EmailMessage[] = [];
  send = (message: EmailMessage): void => {
    this.messages.push(message);
  };
  last(): EmailMessage {
    const message = this.messages.at(-1);
    if (message === undefined) throw new Error("no message was sent");
    return message;
  }
  /** The `token` query parameter of the last message's link. */
  lastToken(): string {
    const token = new URL(this.last().url, "http://localhost").searchParams.get("token");
    if (token === null) throw new Error("the last message has no token");
    return token;
  }
}

/** Options of {@link emailAuth}. */
export interface EmailAuthOptions {
  outbox?: Outbox;
  store?: SessionStore;
  config?: Partial<AuthConfig>;
  /** Hooks laid over the default `email` config (its `send` is the outbox's). */
  email?: Partial<EmailConfig>;
  resets?: { sub: string; email: string; password: string }[];
}

/** An instance with email, password reset and the given store. */
export function emailAuth(options: EmailAuthOptions = {}) {
  const outbox = options.outbox ?? new Outbox();
  const resets = options.resets ?? [];
  const auth = makeAuth({
    email: {
      send: outbox.send,
      findUser: (email: string) => USERS.get(email.toLowerCase()) ?? null,
      ...options.email,
    },
    credentials: {
      authorize: ({ username, password }) =>
        username === "ada" && password === "correct horse" ? ADA : null,
      resetPassword: (reset) => {
        resets.push(reset);
      },
    },
    session: options.store ? { store: options.store } : undefined,
    ...options.config,
  } as Partial<AuthConfig>);
  return { auth, outbox, resets };
}

/** Asks for a sign-in email from `browser` and answers the response. */
export async function askSignIn(
  browser: Browser,
  email: string,
  extra: Record<string, unknown> = {},
): Promise<Response> {
  const csrf = await browser.csrf();
  return await browser.fetch("POST", "/auth/signIn/email", {
    json: { email, ...extra },
    headers: { "X-CSRF-Token": csrf },
  });
}

/** Asks for a password reset from `browser` and answers the response. */
export async function askReset(browser: Browser, email: string): Promise<Response> {
  const csrf = await browser.csrf();
  return await browser.fetch("POST", "/auth/password/forgot", {
    json: { email },
    headers: { "X-CSRF-Token": csrf },
  });
}
