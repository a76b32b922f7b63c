/**
 * Provider metadata by discovery: OpenID Connect Discovery 1.0
 * (`{issuer}/.well-known/openid-configuration`), with RFC 8414's
 * `/.well-known/oauth-authorization-server` as the fallback. The document is
 * validated before use (its `issuer` must equal the configured one exactly,
 * every endpoint is `https:`) and cached per instance for an hour; a failure
 * is never cached.
 *
 * @module
 */

import { providerError } from "../provider_fetch.ts";
import { isRecord } from "../../is_record.ts";
import { getProviderJSON, isLoopbackHost, providerURL } from "./_http.ts";

/** Provider metadata, validated: every URL absolute and allowed, every list of strings. */
export interface ProviderMetadata {
  /** The issuer identifier, equal to the configured one. */
  readonly issuer: string;
  /** The authorization endpoint. */
  readonly authorization_endpoint: string;
  /** The token endpoint. */
  readonly token_endpoint: string;
  /** The JWKS of the ID token signing keys; always present when `openid` was required. */
  readonly jwks_uri?: string;
  /** The user-info endpoint, when the provider has one. */
  readonly userinfo_endpoint?: string;
  /** RFC 7009: the token revocation endpoint, when the provider has one. */
  readonly revocation_endpoint?: string;
  /** Algorithms the provider signs ID tokens with. */
  readonly id_token_signing_alg_values_supported?: readonly string[];
  /** Client authentication methods at the token endpoint. */
  readonly token_endpoint_auth_methods_supported?: readonly string[];
  /** PKCE methods. */
  readonly code_challenge_methods_supported?: readonly string[];
  /** RFC 9207: whether authorization responses carry `iss`. */
  readonly authorization_response_iss_parameter_supported?: boolean;
}

/** Options of {@link discover} and {@link createDiscoveryCache}. */
export interface DiscoveryOptions {
  /** The fetch to use (the instance's); wrapped with a timeout and `redirect: "error"`. */
  fetch: typeof fetch;
  /** Timeout of each request and of reading its body, in ms; default 10 s. */
  timeoutMs?: number;
  /** Whether the provider must support OpenID Connect (`jwks_uri` required); default `true`. */
  openid?: boolean;
}

const DISCOVERY = "discovery";
const OPENID_SUFFIX = "/.well-known/openid-configuration";
const RFC8414_PREFIX = "/.well-known/oauth-authorization-server";

/**
 * Checks a configured issuer identifier: an absolute `https:` URL (`http:`
 * only for a loopback host) without query, fragment or credentials. Returns
 * it unchanged; throws a `TypeError` naming the fix otherwise.
 *
 * @example
 * ```ts
 * import { checkIssuer } from "./discovery.ts";
 * checkIssuer("https://accounts.google.com"); // "https://accounts.google.com"
 * ```
 */
export function checkIssuer(issuer: string): string {
  const url = providerURL(issuer, true);
  if (url === null || url.search !== "" || issuer.includes("?")) {
    throw new TypeError(
      `The issuer is not an https URL without query or fragment; expected e.g. "https://accounts.example.com" (http only for localhost).`,
    );
  }
  return issuer;
}

/**
 * The two discovery URLs of an issuer, in the order they are tried: OpenID
 * Connect Discovery appends `/.well-known/openid-configuration` to the
 * issuer; RFC 8414 section 3.1 inserts `/.well-known/oauth-authorization-server`
 * between the host and the issuer's path (its trailing `/` removed).
 *
 * @example
 * ```ts
 * import { discoveryURLs } from "./discovery.ts";
 * discoveryURLs("https://example.com/tenant");
 * // ["https://example.com/tenant/.well-known/openid-configuration",
 * //  "https://example.com/.well-known/oauth-authorization-server/tenant"]
 * ```
 */
export function discoveryURLs(issuer: string): [openid: string, oauth: string] {
  const url = new URL(checkIssuer(issuer));
  const path = url.pathname.replace(/\/+$/, "");
  return [`${url.origin}${path}${OPENID_SUFFIX}`, `${url.origin}${RFC8414_PREFIX}${path}`];
}

function fail(problem: string): never {
  throw providerError(`The provider's discovery document ${problem}.`);
}

function endpoint(
  document: Record<string, unknown>,
  name: string,
  allowLoopbackHttp: boolean,
  required: boolean,
): string | undefined {
  const value = document[name];
  if (value === undefined && !required) return undefined;
  if (value === undefined) fail(`has no ${name}; expected an https URL`);
  const url = providerURL(value, allowLoopbackHttp);
  if (url === null) fail(`has an invalid ${name}; expected an https URL`);
  return url.href;
}

function stringList(document: Record<string, unknown>, name: string): string[] | undefined {
  const value = document[name];
  if (value === undefined) return undefined;
  if (
    !Array.isArray(value) || value.length > 100 ||
    !value.every((item) => typeof item === "string" && item.length <= 256)
  ) {
    fail(`has an invalid ${name}; expected an array of strings`);
  }
  return [...value] as string[];
}

/**
 * Validates a discovery document for `issuer`: a JSON object whose `issuer`
 * equals the configured one exactly, with `authorization_endpoint`,
 * `token_endpoint` and (for OpenID Connect) `jwks_uri`; every URL `https:`,
 * plain `http:` only to a loopback host and only when the issuer is one.
 * Optional lists must be arrays of strings. Returns a frozen copy holding
 * only the members named by {@link ProviderMetadata}; throws a 502
 * `AuthError` (`server_error`) otherwise.
 *
 * @example
 * ```ts
 * import { validateProviderMetadata } from "./discovery.ts";
 * const metadata = validateProviderMetadata({
 *   issuer: "https://id.example.com",
 *   authorization_endpoint: "https://id.example.com/authorize",
 *   token_endpoint: "https://id.example.com/token",
 *   jwks_uri: "https://id.example.com/jwks",
 * }, "https://id.example.com");
 * ```
 */
export function validateProviderMetadata(
  document: unknown,
  issuer: string,
  options: { openid?: boolean } = {},
): ProviderMetadata {
  if (!isRecord(document)) fail("is not a JSON object; expected provider metadata");
  // Exact comparison, no normalisation: RFC 8414 3.3 and OpenID Connect Discovery 4.3.
  if (document.issuer !== issuer) fail("names another issuer; expected the configured issuer");
  const loopback = isLoopbackHost(new URL(issuer).hostname);
  const metadata: Record<string, unknown> = {
    issuer,
    authorization_endpoint: endpoint(document, "authorization_endpoint", loopback, true),
    token_endpoint: endpoint(document, "token_endpoint", loopback, true),
    jwks_uri: endpoint(document, "jwks_uri", loopback, options.openid !== false),
    userinfo_endpoint: endpoint(document, "userinfo_endpoint", loopback, false),
    revocation_endpoint: endpoint(document, "revocation_endpoint", loopback, false),
    id_token_signing_alg_values_supported: stringList(
      document,
      "id_token_signing_alg_values_supported",
    ),
    token_endpoint_auth_methods_supported: stringList(
      document,
      "token_endpoint_auth_methods_supported",
    ),
    code_challenge_methods_supported: stringList(document, "code_challenge_methods_supported"),
  };
  const issParameter = document.authorization_response_iss_parameter_supported;
  if (issParameter !== undefined) {
    if (typeof issParameter !== "boolean") {
      fail("has an invalid authorization_response_iss_parameter_supported; expected a boolean");
    }
    metadata.authorization_response_iss_parameter_supported = issParameter;
  }
  for (const key of Object.keys(metadata)) {
    if (metadata[key] === undefined) delete metadata[key];
    else if (Array.isArray(metadata[key])) Object.freeze(metadata[key]);
  }
  return Object.freeze(metadata) as unknown as ProviderMetadata;
}

/**
 * Fetches and validates the provider metadata of `issuer`: the OpenID
 * Connect discovery URL first; when that answers a non-2xx status, the
 * RFC 8414 URL. Every request is bounded (10 s, 256 KiB) and never follows
 * a redirect. Any failure is a 502 `AuthError` (`server_error`).
 *
 * @example
 * ```ts ignore
 * import { discover } from "./discovery.ts";
 * const metadata = await discover("https://accounts.google.com", { fetch });
 * metadata.token_endpoint; // "https://oauth2.googleapis.com/token"
 * ```
 */
export async function discover(
  issuer: string,
  options: DiscoveryOptions,
): Promise<ProviderMetadata> {
  let status = 0;
  for (const url of discoveryURLs(issuer)) {
    const answer = await getProviderJSON(url, DISCOVERY, options);
    if (answer.ok) return validateProviderMetadata(answer.data, issuer, options);
    status = answer.status;
  }
  throw providerError(
    `The provider's discovery endpoint answered ${status}; expected its metadata.`,
  );
}

/** Options of {@link createDiscoveryCache}. */
export interface DiscoveryCacheOptions {
  /** The fetch to use (the instance's); wrapped with a timeout and `redirect: "error"`. */
  fetch: typeof fetch;
  /** The clock, in ms since the epoch; default `Date.now`. */
  now?: () => number;
  /** How long a document is reused, in ms; default one hour. */
  maxAgeMs?: number;
  /** Timeout of each request and of reading its body, in ms; default 10 s. */
  timeoutMs?: number;
  /**
   * Issuers kept at most; past this many the least recently used is dropped
   * (single sign-on serves an issuer per organization). Default unbounded.
   */
  maxEntries?: number;
}

/** Provider metadata per issuer, fetched on first use and reused for an hour. */
export interface DiscoveryCache {
  /**
   * The validated metadata of `issuer`: cached when fresh, else fetched
   * once however many callers wait for it. A failure is thrown to every
   * waiting caller and never cached. `openid` (default `true`) requires a
   * `jwks_uri`.
   */
  get(issuer: string, options?: { openid?: boolean }): Promise<ProviderMetadata>;
  /**
   * The cached, fresh metadata of `issuer` without waiting, or `undefined`
   * (then call {@link DiscoveryCache.get}). Optional: a warm path's shortcut.
   */
  peek?(issuer: string): ProviderMetadata | undefined;
}

interface CacheEntry {
  metadata?: ProviderMetadata;
  expiresAt: number;
  pending?: Promise<ProviderMetadata>;
}

/**
 * Creates a discovery cache for one instance: documents are fetched on
 * first use (never at creation), reused for `maxAgeMs` by the given clock,
 * fetched once for concurrent callers, and refetched after any failure.
 *
 * @example
 * ```ts ignore
 * import { createDiscoveryCache } from "./discovery.ts";
 * const discovery = createDiscoveryCache({ fetch });
 * const metadata = await discovery.get("https://accounts.google.com");
 * ```
 */
export function createDiscoveryCache(options: DiscoveryCacheOptions): DiscoveryCache {
  const now = options.now ?? Date.now;
  const maxAgeMs = options.maxAgeMs ?? 60 * 60 * 1000;
  const entries = new Map<string, CacheEntry>();
  const maxEntries = options.maxEntries ?? Infinity;

  function load(issuer: string): Promise<ProviderMetadata> {
    const entry: CacheEntry = { expiresAt: 0 };
    // Validated without the jwks_uri requirement: one document serves both kinds of caller.
    const pending = discover(issuer, { ...options, openid: false });
    entry.pending = pending;
    entries.delete(issuer);
    entries.set(issuer, entry);
    // Least recently used first: a Map keeps insertion order and a hit moves its entry last.
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    pending.then((metadata) => {
      entry.metadata = metadata;
      entry.expiresAt = now() + maxAgeMs;
      entry.pending = undefined;
    }, () => {
      if (entries.get(issuer) === entry) entries.delete(issuer);
    });
    return pending;
  }

  async function get(
    issuer: string,
    getOptions: { openid?: boolean } = {},
  ): Promise<ProviderMetadata> {
    const entry = entries.get(issuer);
    let metadata: ProviderMetadata;
    if (entry?.pending) metadata = await entry.pending;
    else if (entry?.metadata && now() < entry.expiresAt) {
      metadata = entry.metadata;
      if (maxEntries !== Infinity) {
        entries.delete(issuer);
        entries.set(issuer, entry);
      }
    } else metadata = await load(issuer);
    if (getOptions.openid !== false && metadata.jwks_uri === undefined) {
      // A document unfit for OpenID Connect is not kept: the next call asks again.
      if (entries.get(issuer)?.metadata === metadata) entries.delete(issuer);
      fail("has no jwks_uri; expected an https URL");
    }
    return metadata;
  }

  function peek(issuer: string): ProviderMetadata | undefined {
    const entry = entries.get(issuer);
    if (entry?.metadata === undefined || entry.pending || now() >= entry.expiresAt) {
      return undefined;
    }
    if (maxEntries !== Infinity) {
      entries.delete(issuer);
      entries.set(issuer, entry);
    }
    return entry.metadata;
  }

  return { get, peek };
}
