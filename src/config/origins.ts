/**
 * `baseURL`, `trustedOrigins` and `trustedProxyHeaders`: how the service
 * knows its own origin and which others it trusts.
 *
 * @module
 */

import type { EnvReader } from "../env.ts";
import { lookupEnv, parseList } from "../env.ts";
import { compileOriginPatterns, type OriginMatcher } from "../origins/trusted.ts";
import { fail } from "./_check.ts";

/** The resolved origin settings. */
export interface OriginSettings {
  /** The public origin from `baseURL` (or env `URL`): when set, it alone is the service's origin. */
  readonly publicOrigin?: { readonly origin: string; readonly secure: boolean };
  /** Whether `Forwarded` / `X-Forwarded-*` are read. */
  readonly trustProxyHeaders: boolean;
  /** Static trusted-origin patterns (config and env `TRUSTED_ORIGINS`). */
  readonly staticMatcher: OriginMatcher;
  /** The config's trusted-origins function, when one is given. */
  readonly originsFn?: (request: Request) => string[] | Promise<string[]>;
}

/** What the origin resolver reads from the config. */
export interface OriginOptions {
  baseURL?: unknown;
  trustedOrigins?: unknown;
  trustedProxyHeaders?: unknown;
}

/** Parses `baseURL`: an http(s) origin only (no path, query, fragment or credentials). */
export function parseBaseURL(value: unknown, source: string): OriginSettings["publicOrigin"] {
  if (typeof value !== "string" || value.trim() === "") {
    fail(`${source} is not a string; expected an origin like "https://app.example.com".`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(`${source} is not a URL; expected an origin like "https://app.example.com".`);
  }
  const bare = (url.pathname === "/" || url.pathname === "") && url.search === "" &&
    url.hash === "" && !/[?#]/.test(value) && url.username === "" && url.password === "";
  if ((url.protocol !== "https:" && url.protocol !== "http:") || !bare) {
    fail(
      `${source} is not a bare origin; expected scheme, host and optional port only, like "https://app.example.com".`,
    );
  }
  return Object.freeze({ origin: url.origin, secure: url.protocol === "https:" });
}

/** Resolves the origin settings from the config and the environment. */
export function resolveOrigins(options: OriginOptions, read: EnvReader): OriginSettings {
  const envBase = lookupEnv("URL", read);
  const publicOrigin = options.baseURL !== undefined
    ? parseBaseURL(options.baseURL, "baseURL")
    : envBase !== undefined
    ? parseBaseURL(envBase, "the URL environment variable (AUTH_URL)")
    : undefined;
  const proxy = options.trustedProxyHeaders;
  if (proxy !== undefined && typeof proxy !== "boolean") {
    fail("trustedProxyHeaders is not a boolean; expected true or false.");
  }
  const envOrigins = parseList(lookupEnv("TRUSTED_ORIGINS", read) ?? "");
  let configOrigins: readonly string[] = [];
  let originsFn: OriginSettings["originsFn"];
  const given = options.trustedOrigins;
  if (typeof given === "function") {
    originsFn = given as OriginSettings["originsFn"];
  } else if (given !== undefined) {
    if (!Array.isArray(given) || !given.every((origin) => typeof origin === "string")) {
      fail(
        "trustedOrigins is invalid; expected an array of origin strings or a function of the request.",
      );
    }
    configOrigins = given;
  }
  let staticMatcher: OriginMatcher;
  try {
    staticMatcher = compileOriginPatterns([...configOrigins, ...envOrigins]);
  } catch (error) {
    fail(error instanceof Error ? error.message : "trustedOrigins is invalid.");
  }
  return Object.freeze({
    publicOrigin,
    trustProxyHeaders: proxy ?? false,
    staticMatcher,
    originsFn,
  });
}
