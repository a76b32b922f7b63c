/**
 * `baseURL`, `trustedOrigins` and `trustedProxyHeaders`: how the service
 * knows its own origin and which others it trusts.
 *
 * @module
 */

import type { EnvReader } from "../env.ts";
import { lookupEnv, parseList } from "../env.ts";
import type { Logger } from "../logger.ts";
import {
  type IgnoredProxyHeaders,
  type ProxyHeaders,
  type RequestOrigin,
  requestOrigin,
} from "../origins/proxy.ts";
import { compileOriginPatterns, type OriginMatcher } from "../origins/trusted.ts";
import { fail } from "./_check.ts";

const PROXY_HEADERS: readonly ProxyHeaders[] = [
  false,
  true,
  "forwarded",
  "x-forwarded",
  "x-forwarded-proto",
];

/** The resolved origin settings. */
export interface OriginSettings {
  /** The public origin from `baseURL` (or env `URL`): when set, it alone is the service's origin. */
  readonly publicOrigin?: { readonly origin: string; readonly secure: boolean };
  /** Which forwarding headers are read (see `ProxyHeaders`). */
  readonly trustProxyHeaders: ProxyHeaders;
  /** Static trusted-origin patterns (config and env `TRUSTED_ORIGINS`). */
  readonly staticMatcher: OriginMatcher;
  /** The config's trusted-origins function, when one is given. */
  readonly originsFn?: (request: Request) => string[] | Promise<string[]>;
  /** The origin warnings this instance has logged: each is logged once per instance. */
  readonly originWarnings: Set<OriginWarning>;
}

/** A warning about how the service's origin was decided, logged once per instance. */
export type OriginWarning = "no-base-url" | IgnoredProxyHeaders;

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
  if (proxy !== undefined && !PROXY_HEADERS.includes(proxy as ProxyHeaders)) {
    fail(
      'trustedProxyHeaders is invalid; expected false, "forwarded", "x-forwarded", "x-forwarded-proto" (the headers your proxy sets) or true.',
    );
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
    trustProxyHeaders: (proxy ?? false) as ProxyHeaders,
    staticMatcher,
    originsFn,
    originWarnings: new Set<OriginWarning>(),
  });
}

const WARNINGS: Readonly<Record<OriginWarning, string>> = {
  "no-base-url":
    "no baseURL is set, so the request's Host header decides the service's origin (OAuth redirect_uri, email links, cookies); expected baseURL (or AUTH_URL) in production",
  "both-families":
    "a request carried both Forwarded and X-Forwarded-* headers, so neither was read (one of them is not your proxy's); expected trustedProxyHeaders to name the family your proxy sets",
  "x-forwarded-host":
    'X-Forwarded-Host is not read with trustedProxyHeaders: true (a client can send it past a proxy that does not set it); expected trustedProxyHeaders: "x-forwarded" if your proxy sets it on every request',
};

function warnOnce(
  settings: Pick<OriginSettings, "originWarnings">,
  logger: Logger,
  warning: OriginWarning,
  details?: Record<string, string>,
): void {
  if (settings.originWarnings.has(warning)) return;
  settings.originWarnings.add(warning);
  logger.log("warn", WARNINGS[warning], details);
}

/** The last origin found to be loopback: most requests repeat it, so it is not parsed again. */
let lastLoopback = "";

/** Whether a serialized origin (`scheme://host[:port]`) is on a loopback host; no URL parse. */
export function isLoopbackOrigin(origin: string): boolean {
  if (origin === lastLoopback) return true;
  if (!parsesAsLoopback(origin)) return false;
  lastLoopback = origin;
  return true;
}

function parsesAsLoopback(origin: string): boolean {
  const authority = origin.slice(origin.indexOf("//") + 2);
  const hostname = authority.startsWith("[")
    ? authority.slice(0, authority.indexOf("]") + 1)
    : authority.split(":")[0];
  return hostname === "localhost" || hostname.endsWith(".localhost") || hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** The last {@link urlOrigin} answer, with the protocol it was made for. */
let lastUrlOrigin: { protocol: string; found: RequestOrigin } | undefined;

/**
 * What `requestOrigin` answers without proxy headers (the URL's origin and
 * scheme), one frozen value for as long as requests repeat the same origin.
 */
function urlOrigin(url: Pick<URL, "origin" | "protocol">): RequestOrigin {
  const last = lastUrlOrigin;
  if (last !== undefined && last.found.origin === url.origin && last.protocol === url.protocol) {
    return last.found;
  }
  const found = Object.freeze({ origin: url.origin, secure: url.protocol === "https:" });
  lastUrlOrigin = { protocol: url.protocol, found };
  return found;
}

/**
 * The service's origin for one request: `baseURL` when set; else the
 * request URL's, or the trusted proxy's (see `requestOrigin`). Logs once per
 * instance when the Host header decides it on a host that is not loopback,
 * and when forwarding headers were present but not read.
 *
 * @example
 * ```ts ignore
 * import { serviceOrigin } from "./origins.ts";
 *
 * const { origin, secure } = serviceOrigin(ctx, request, new URL(request.url));
 * ```
 */
export function serviceOrigin(
  ctx: OriginSettings & { readonly logger: Logger },
  request: Request,
  url: Pick<URL, "origin" | "protocol" | "host">,
): RequestOrigin {
  if (ctx.publicOrigin !== undefined) return ctx.publicOrigin;
  const found = ctx.trustProxyHeaders === false ? urlOrigin(url) : requestOrigin(request, {
    url,
    trustProxyHeaders: ctx.trustProxyHeaders,
    onIgnored: (reason) => warnOnce(ctx, ctx.logger, reason),
  });
  if (!ctx.originWarnings.has("no-base-url") && !isLoopbackOrigin(found.origin)) {
    warnOnce(ctx, ctx.logger, "no-base-url", { origin: found.origin });
  }
  return found;
}
