/**
 * Validation of `createAuthClient` options into one frozen value, once.
 *
 * @module
 */

import type { AuthClientOptions, ClientFetch, ClientHeaders } from "./types.ts";

/** Options after validation and defaults. */
export interface ResolvedClientOptions {
  /** `{origin}{basePath}` or just `{basePath}`, without a trailing slash (may be ""). */
  readonly prefix: string;
  readonly headers: ClientHeaders | undefined;
  readonly fetch: ClientFetch | undefined;
  readonly cache: NonNullable<AuthClientOptions["cache"]>;
  readonly credentials: NonNullable<AuthClientOptions["credentials"]>;
  readonly mode: NonNullable<AuthClientOptions["mode"]>;
}

const CACHE_MODES = ["default", "no-store", "reload", "no-cache", "force-cache", "only-if-cached"];
const CREDENTIALS_MODES = ["omit", "same-origin", "include"];
const FETCH_MODES = ["cors", "no-cors", "same-origin"];

// Path segments of RFC 3986 `pchar`s only: no `//`, `\`, `?`, `#`, spaces or controls.
const BASE_PATH = /^(?:(?:\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+\/?|\/)$/;

function fail(message: string): never {
  throw new TypeError(message);
}

function oneOf<T extends string>(name: string, value: unknown, allowed: string[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !allowed.includes(value)) {
    fail(`Invalid ${name} option ${JSON.stringify(value)}: expected one of ${allowed.join(", ")}.`);
  }
  return value as T;
}

function resolveOrigin(baseURL: unknown): string {
  if (baseURL === undefined) return "";
  let url: URL | undefined;
  try {
    if (typeof baseURL === "string") url = new URL(baseURL);
  } catch {
    // Reported below with the value.
  }
  if (
    !url || (url.protocol !== "http:" && url.protocol !== "https:") || url.username ||
    url.password || url.pathname !== "/" || url.search || url.hash ||
    /[?#]/.test(String(baseURL))
  ) {
    fail(
      `Invalid baseURL option ${
        JSON.stringify(baseURL)
      }: expected an http(s) origin such as "https://auth.example.com" (no path, query or credentials; put the path in basePath).`,
    );
  }
  return url.origin;
}

function resolveBasePath(basePath: unknown): string {
  if (basePath === undefined) return "/auth";
  if (typeof basePath !== "string" || !BASE_PATH.test(basePath)) {
    fail(
      `Invalid basePath option ${
        JSON.stringify(basePath)
      }: expected a path starting with a single "/" such as "/auth", without query, fragment or backslash.`,
    );
  }
  return basePath.replace(/\/$/, "");
}

/**
 * Validates `createAuthClient` options and applies the defaults; throws a
 * `TypeError` naming the bad option.
 */
export function resolveClientOptions(options: AuthClientOptions = {}): ResolvedClientOptions {
  if (typeof options !== "object" || options === null) {
    fail("Invalid createAuthClient options: expected an object or nothing.");
  }
  const { headers, fetch } = options;
  if (
    headers !== undefined && typeof headers !== "function" &&
    (typeof headers !== "object" || headers === null)
  ) {
    fail("Invalid headers option: expected a headers object or a function returning one.");
  }
  if (fetch !== undefined && typeof fetch !== "function") {
    fail("Invalid fetch option: expected a fetch-compatible function.");
  }
  return Object.freeze({
    prefix: resolveOrigin(options.baseURL) + resolveBasePath(options.basePath),
    headers,
    fetch,
    cache: oneOf("cache", options.cache, CACHE_MODES, "no-store"),
    credentials: oneOf("credentials", options.credentials, CREDENTIALS_MODES, "include"),
    mode: oneOf("mode", options.mode, FETCH_MODES, "cors"),
  });
}
