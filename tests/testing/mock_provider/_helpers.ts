/** Helpers for the mock provider tests: PKCE pairs, authorization and token requests. */

import assert from "node:assert/strict";
import type { MockProvider } from "../../../testing.ts";
import { encodeBase64Url } from "../../../src/jose/base64url.ts";

export const REDIRECT_URI = "http://app.localhost/auth/callback/mock";
export const STATE = "state-0123456789abcdef";

export interface Pkce {
  verifier: string;
  challenge: string;
}

export async function pkce(): Promise<Pkce> {
  const verifier = encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: encodeBase64Url(new Uint8Array(digest)) };
}

export function authorizeURL(
  mock: MockProvider,
  challenge: string,
  overrides: Record<string, string | null> = {},
): string {
  const url = new URL(mock.provider.authorizeURL);
  const params: Record<string, string | null> = {
    response_type: "code",
    client_id: mock.provider.clientId,
    redirect_uri: REDIRECT_URI,
    scope: mock.provider.scope,
    state: STATE,
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...overrides,
  };
  for (const [name, value] of Object.entries(params)) {
    if (value !== null) url.searchParams.set(name, value);
  }
  return url.href;
}

/** Runs the authorization step and returns the redirect's query parameters. */
export async function authorize(
  mock: MockProvider,
  challenge: string,
  overrides: Record<string, string | null> = {},
): Promise<URLSearchParams> {
  const response = await mock.fetch(authorizeURL(mock, challenge, overrides));
  assert.equal(response.status, 302);
  const location = new URL(response.headers.get("location")!);
  assert.equal(`${location.origin}${location.pathname}`, REDIRECT_URI);
  return location.searchParams;
}

export function basic(id: string, secret: string): string {
  const enc = (s: string) => encodeURIComponent(s);
  return `Basic ${btoa(`${enc(id)}:${enc(secret)}`)}`;
}

/** Posts a token request; a `null` header value leaves that header out. */
export function tokenRequest(
  mock: MockProvider,
  fields: Record<string, string>,
  overrides: Record<string, string | null> = {},
): Promise<Response> {
  const headers = new Headers({
    "content-type": "application/x-www-form-urlencoded",
    authorization: basic(mock.provider.clientId, mock.provider.clientSecret),
    accept: "application/json",
  });
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return mock.fetch(mock.provider.accessToken, {
    method: "POST",
    headers,
    body: new URLSearchParams(fields),
  });
}

export function exchange(
  mock: MockProvider,
  code: string,
  verifier: string,
  overrides: Record<string, string> = {},
): Promise<Response> {
  return tokenRequest(mock, {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    ...overrides,
  });
}

export async function codeFor(mock: MockProvider, challenge: string): Promise<string> {
  return (await authorize(mock, challenge)).get("code")!;
}

export async function errorOf(response: Response): Promise<string> {
  const body = await response.json();
  assert.equal(typeof body.error_description, "string");
  return body.error;
}

/** Runs authorize and token for `mock`; returns the token response body. */
export async function signIn(
  mock: MockProvider,
  overrides: Record<string, string | null> = {},
): Promise<Record<string, string>> {
  const { verifier, challenge } = await pkce();
  const code = (await authorize(mock, challenge, overrides)).get("code")!;
  const response = await exchange(mock, code, verifier);
  assert.equal(response.status, 200);
  return await response.json();
}

/** The userinfo response body for an access token. */
export async function userInfo(
  mock: MockProvider,
  accessToken: string,
): Promise<Record<string, unknown>> {
  const response = await mock.fetch(mock.provider.userInfo, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  assert.equal(response.status, 200);
  return await response.json();
}
