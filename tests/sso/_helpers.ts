// Helpers of the single sign-on tests: a browser that posts to /signIn/sso with
// its CSRF token, and a resolver over a table of organizations that counts calls.
import assert from "node:assert/strict";
import type { SsoConnection, SsoQuery } from "../../mod.ts";
import { Browser, ORIGIN } from "../oauth/_flow_helpers.ts";

export { Browser, ORIGIN };

/** The callback every organization registers. */
export const SSO_CALLBACK = `${ORIGIN}/auth/callback/sso`;

/** `POST /auth/signIn/sso` with a fresh CSRF token (JSON body); returns the response. */
export async function postSignIn(
  browser: Browser,
  body: Record<string, unknown>,
  query = "",
): Promise<Response> {
  const csrf = await browser.get("/auth/csrfToken");
  const { csrfToken } = await csrf.json();
  const response = await browser.handler(
    new Request(`${ORIGIN}/auth/signIn/sso${query}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-CSRF-Token": csrfToken,
        Origin: ORIGIN,
        Cookie: browser.cookieHeader(),
      },
      body: JSON.stringify(body),
    }),
  );
  browser.store(response);
  return response;
}

/** Starts a sign-in that must succeed; returns the provider's authorization URL. */
export async function startSso(browser: Browser, body: Record<string, unknown>): Promise<URL> {
  const response = await postSignIn(browser, body);
  assert.equal(response.status, 200, `POST /signIn/sso answered ${response.status}`);
  return new URL((await response.json()).url);
}

/** A resolver over organizations by id and by domain, recording each question. */
export function tableResolver(connections: SsoConnection[]): {
  resolve: (query: SsoQuery) => SsoConnection | null;
  calls: SsoQuery[];
} {
  const calls: SsoQuery[] = [];
  return {
    calls,
    resolve(query) {
      calls.push(query);
      return connections.find((connection) =>
        query.organization !== undefined
          ? connection.id === query.organization
          : connection.domains.includes(query.domain ?? "")
      ) ?? null;
    },
  };
}

/** The sub of the browser's session, or null without one. */
export async function sessionSub(browser: Browser): Promise<string | null> {
  const response = await browser.get("/auth/session");
  const session = await response.json();
  return session?.user?.sub ?? null;
}
