/**
 * The checks of one provider's fields as `createAuth` resolves it: URLs,
 * the issuer, endpoints, scope, headers, authorization parameters and
 * ID-token algorithms. Each is synchronous and throws a `TypeError` naming
 * the fix, so that a misconfigured provider stops the app at start, never a
 * sign-in later.
 *
 * @module
 */

import { isRecord } from "./profile.ts";
import { ID_TOKEN_ALGORITHMS as ASYMMETRIC_ID_TOKEN_ALGORITHMS } from "./oidc/id_token.ts";
import type { BuiltInProvider, ProviderEndpoints } from "./types.ts";

/** Parameters the flow sets itself; `authorizationParams` may not override them. */
const RESERVED_AUTHORIZATION_PARAMS: ReadonlySet<string> = new Set([
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "code_verifier",
  "redirect_uri",
  "client_id",
  "client_secret",
  "response_type",
  "response_mode",
  "scope",
]);

/** ID-token algorithms a provider may name (DECISIONS "OpenID Connect"): HS256 only when listed. */
const ID_TOKEN_ALGORITHMS: ReadonlySet<string> = new Set([
  ...ASYMMETRIC_ID_TOKEN_ALGORITHMS,
  "HS256",
]);

/** The scope of a provider configured by its issuer alone. */
const DISCOVERED_SCOPE = "openid profile email";

/** Example issuers named in the error of a built-in that needs one. */
const ISSUER_EXAMPLES: Readonly<Record<string, string>> = {
  okta: "https://dev-1.okta.com",
  auth0: "https://example.us.auth0.com/",
  keycloak: "https://sso.example.com/realms/main",
  cognito: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123",
};

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// deno-lint-ignore no-control-regex
const HEADER_VALUE_FORBIDDEN = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** Throws the `TypeError` of a config error, prefixed with `createAuth: `. */
export function fail(message: string): never {
  throw new TypeError(`createAuth: ${message}`);
}

/** The entry's non-empty string `key`. */
export function text(entry: Record<string, unknown>, key: string, id: string): string {
  const value = entry[key];
  if (typeof value !== "string" || value.trim() === "") {
    fail(`provider "${id}" needs a non-empty string "${key}"; expected e.g. ${key}: "...".`);
  }
  return value;
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost") ||
    hostname === "127.0.0.1" || hostname === "[::1]";
}

/**
 * Checks an issuer or endpoint URL: absolute, `https:` (plain `http:` only on
 * a loopback host), no credentials, no fragment. Returns its parsed form.
 *
 * @example
 * ```ts
 * import { checkProviderURL } from "./provider_checks.ts";
 *
 * checkProviderURL("https://dev-1.okta.com", { id: "okta", key: "issuer" }); // "https://dev-1.okta.com/"
 * ```
 */
export function checkProviderURL(value: unknown, where: { id: string; key: string }): string {
  const { id, key } = where;
  if (typeof value !== "string" || value.trim() === "") {
    fail(`provider "${id}" needs a non-empty string "${key}"; expected an https URL.`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(`provider "${id}" ${key} must be an absolute URL, got "${value}"; expected an https URL.`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))) {
    fail(
      `provider "${id}" ${key} must use https (http is allowed only for localhost); expected an https URL.`,
    );
  }
  if (url.username || url.password || url.hash) {
    fail(
      `provider "${id}" ${key} must not contain credentials or a fragment; expected a plain https URL.`,
    );
  }
  return url.href;
}

/** The endpoint `key`, checked when given. */
export function optionalEndpoint(
  merged: Record<string, unknown>,
  key: "authorizeURL" | "accessToken" | "userInfo" | "jwksURI",
  id: string,
): string | undefined {
  return merged[key] === undefined ? undefined : checkProviderURL(merged[key], { id, key });
}

/** An issuer keeps its exact spelling (a trailing slash is significant); only its form is checked. */
export function checkIssuer(value: unknown, id: string): string | undefined {
  if (value === undefined) return undefined;
  checkProviderURL(value, { id, key: "issuer" });
  const issuer = value as string;
  if (issuer.includes("?")) {
    fail(`provider "${id}" issuer must not have a query; expected e.g. "https://dev-1.okta.com".`);
  }
  return issuer;
}

/** The boolean `key`, `true` when absent. */
export function optionalBoolean(merged: Record<string, unknown>, key: string, id: string): boolean {
  const value = merged[key] ?? true;
  if (typeof value !== "boolean") {
    fail(`provider "${id}" ${key} must be a boolean; expected true or false.`);
  }
  return value;
}

/** The value of `key`, one of `allowed` (the first when absent). */
export function oneOf<T extends string>(
  merged: Record<string, unknown>,
  key: string,
  id: string,
  allowed: readonly T[],
): T {
  const value = merged[key] ?? allowed[0];
  if (!allowed.includes(value as T)) {
    fail(
      `provider "${id}" ${key} must be ${allowed.map((item) => `"${item}"`).join(" or ")}; got ${
        JSON.stringify(value)
      }.`,
    );
  }
  return value as T;
}

function stringRecord(value: unknown, key: string, id: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value) || !Object.values(value).every((item) => typeof item === "string")) {
    fail(
      `provider "${id}" ${key} must be an object of strings; expected e.g. { prompt: "consent" }.`,
    );
  }
  return { ...(value as Record<string, string>) };
}

/** The extra headers, each a valid header name and value. */
export function checkHeaders(value: unknown, id: string): Record<string, string> {
  const headers = stringRecord(value, "headers", id);
  for (const [name, item] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name) || HEADER_VALUE_FORBIDDEN.test(item)) {
      fail(
        `provider "${id}" header "${name}" is not a valid header; expected e.g. { "User-Agent": "web:my-app:1.0" }.`,
      );
    }
  }
  return headers;
}

/** The extra authorization parameters, none of them one the flow sets. */
export function checkAuthorizationParams(
  value: unknown,
  id: string,
  clientIdParam: string,
): Record<string, string> {
  const params = stringRecord(value, "authorizationParams", id);
  for (const key of Object.keys(params)) {
    if (RESERVED_AUTHORIZATION_PARAMS.has(key) || key === clientIdParam) {
      fail(
        `provider "${id}" authorizationParams may not set "${key}": the flow sets it${
          key === "scope" ? " (use scope)" : ""
        }; expected other parameters, e.g. { prompt: "consent" }.`,
      );
    }
  }
  return params;
}

/** The ID-token algorithms, when given: a non-empty list of those allowed. */
export function checkAlgorithms(value: unknown, id: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (
    !Array.isArray(value) || value.length === 0 ||
    !value.every((item) => typeof item === "string" && ID_TOKEN_ALGORITHMS.has(item))
  ) {
    fail(
      `provider "${id}" idTokenAlgorithms must be a non-empty list of JWS algorithms; expected e.g. ["RS256"] (never "none").`,
    );
  }
  return Object.freeze([...value]);
}

/**
 * The three endpoints, each checked when given; without an issuer all three
 * are required, and a built-in that takes an issuer names it.
 */
export function checkEndpoints(
  merged: Record<string, unknown>,
  context: { id: string; issuer: string | undefined; builtIn: BuiltInProvider },
): ProviderEndpoints {
  const { id, issuer, builtIn } = context;
  const endpoints = {
    authorizeURL: optionalEndpoint(merged, "authorizeURL", id),
    accessToken: optionalEndpoint(merged, "accessToken", id),
    userInfo: optionalEndpoint(merged, "userInfo", id),
  };
  if (issuer !== undefined) return endpoints;
  if (builtIn.options?.includes("issuer")) {
    fail(
      `provider "${id}" needs an issuer; expected e.g. issuer: "${
        ISSUER_EXAMPLES[id] ?? "https://id.example.com"
      }" (or ${id.toUpperCase()}_ISSUER in the environment).`,
    );
  }
  for (const [key, value] of Object.entries(endpoints)) {
    if (value === undefined) {
      fail(
        `provider "${id}" needs a non-empty string "${key}" (or an issuer to discover it); expected an https URL.`,
      );
    }
  }
  return endpoints;
}

/**
 * A provider configured by its issuer alone asks for the OpenID Connect
 * default scope (DECISIONS "JOSE and keys"); one whose endpoints are given
 * by hand must say what it asks for.
 */
export function checkScope(
  value: unknown,
  context: { id: string; issuer: string | undefined; configured: ProviderEndpoints },
): string {
  const { id, issuer, configured } = context;
  const byHand = Object.values(configured).some((endpoint) => endpoint !== undefined);
  if (value === undefined && issuer !== undefined && !byHand) return DISCOVERED_SCOPE;
  if (typeof value !== "string") {
    fail(
      `provider "${id}" needs a string "scope" when its endpoints are given by hand; expected e.g. scope: "openid profile email".`,
    );
  }
  return value;
}
