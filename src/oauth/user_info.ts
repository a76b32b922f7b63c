/**
 * The user-info request with the bearer token, its validation, and the
 * host-bound fetch that carries a provider's follow-up calls.
 *
 * @module
 */

import {
  callProvider,
  parseProviderJSON,
  providerError,
  readProviderText,
} from "./provider_fetch.ts";
import { mediaType } from "../http.ts";
import type { ResolvedProvider } from "./resolved_provider.ts";
import type { OAuthTokens } from "./types.ts";

/** Headers the flow sets itself; a provider's `headers` never replace them. */
const FLOW_HEADERS: ReadonlySet<string> = new Set(["authorization", "accept", "content-type"]);

/**
 * Adds a provider's extra `headers` to `headers`, skipping the ones the flow
 * sets itself (`Authorization`, `Accept`, `Content-Type`).
 *
 * @example
 * ```ts
 * import { withProviderHeaders } from "./user_info.ts";
 *
 * const headers = withProviderHeaders(new Headers(), { "User-Agent": "web:app:v1" });
 * headers.get("User-Agent"); // "web:app:v1"
 * ```
 */
export function withProviderHeaders(
  headers: Headers,
  extra: Readonly<Record<string, string>> | undefined,
): Headers {
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (!FLOW_HEADERS.has(name.toLowerCase())) headers.set(name, value);
  }
  return headers;
}

/**
 * Fetches the provider's user-info object with the access token (`GET`, or
 * `POST` without a body when the provider says); any failure is a 502
 * `AuthError`. A provider without a user-info endpoint (an OpenID Connect
 * provider that puts everything in its ID token, like Apple) gives `{}`:
 * the caller maps the ID token's claims alone.
 */
export async function fetchUserInfo(
  fetchFn: typeof fetch,
  provider: ResolvedProvider,
  tokens: OAuthTokens,
): Promise<Record<string, unknown>> {
  if (provider.userInfo === undefined) return {};
  const headers = withProviderHeaders(
    new Headers({ Accept: "application/json", Authorization: `Bearer ${tokens.access_token}` }),
    provider.headers,
  );
  const response = await callProvider(fetchFn, provider.userInfo, {
    method: provider.userInfoMethod,
    headers,
  }, "user-info");
  const text = await readProviderText(response, "user-info");
  if (!response.ok) {
    throw providerError(`The provider's user-info endpoint answered ${response.status}.`);
  }
  const type = mediaType(response);
  if (type !== "application/json" && !type.endsWith("+json")) {
    throw providerError("The provider's user-info response is not JSON.");
  }
  return parseProviderJSON(text, "user-info");
}

function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Wraps `fetchFn` so that it reaches only the origins (scheme, host and
 * port) of `allowedURLs`, a provider's configured endpoints: a call to any
 * other origin is refused with a `TypeError` before anything, the access
 * token included, is sent. Redirects are refused too (`redirect: "error"`),
 * so a configured host cannot bounce the call elsewhere.
 *
 * @example
 * ```ts
 * import { hostBoundFetch } from "./user_info.ts";
 *
 * const bound = hostBoundFetch(fetch, ["https://git.corp.example/api/v3/user"]);
 * await bound("https://git.corp.example/api/v3/user/emails"); // sent
 * await bound("https://api.github.com/user/emails").catch(() => "refused"); // "refused"
 * ```
 */
export function hostBoundFetch(
  fetchFn: typeof fetch,
  allowedURLs: readonly (string | undefined)[],
): typeof fetch {
  const allowed = new Set<string>();
  for (const url of allowedURLs) {
    const origin = url === undefined ? undefined : originOf(url);
    if (origin !== undefined) allowed.add(origin);
  }
  return (input, init) => {
    const target = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    const origin = originOf(String(target));
    if (origin === undefined || !allowed.has(origin)) {
      return Promise.reject(
        new TypeError(
          "A provider call to a host outside its configured endpoints was refused; expected one of the provider's endpoint hosts.",
        ),
      );
    }
    return fetchFn(input, { ...init, redirect: "error" });
  };
}
