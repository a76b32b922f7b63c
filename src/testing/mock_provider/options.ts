/**
 * The options of `createMockProvider`, checked once and resolved into
 * settings with every default applied.
 *
 * @module
 */

import type { ClientAuthMethod } from "../../oauth/types.ts";
import { isOverride } from "./_merge.ts";
import type {
  MockAuthorizationRequest,
  MockDecision,
  MockOIDCOptions,
  MockProviderOptions,
  MockSigningAlgorithm,
  MockUser,
} from "./types.ts";

/**
 * Default id of the mock OAuth provider.
 *
 * @example
 * ```ts
 * import { createMockProvider, MOCK_PROVIDER_ID } from "@service-stack/auth/testing";
 *
 * const mock = createMockProvider();
 * console.log(mock.provider.id === MOCK_PROVIDER_ID); // true
 * ```
 */
export const MOCK_PROVIDER_ID = "mock";

/** Default base URL of the mock provider (`.localhost` never leaves the machine). */
const DEFAULT_BASE_URL = "http://mock-oauth.localhost";
const DEFAULT_CLIENT_ID = "mock-client-id";
const DEFAULT_CLIENT_SECRET = "mock-client-secret";
/** The scopes the server knows by default, and the scope of `provider` in OpenID Connect mode. */
export const DEFAULT_SCOPES: readonly string[] = ["openid", "profile", "email"];
/** The scope of `provider` in plain OAuth mode (`oidc: false`): no `openid`. */
export const PLAIN_SCOPES: readonly string[] = ["profile", "email"];
const DEFAULT_USER: MockUser = {
  sub: "mock-user-1",
  name: "Ada Lovelace",
  email: "ada@example.com",
  picture: "https://example.com/avatars/ada.png",
};

/** The URLs of the endpoints. */
export interface MockEndpoints {
  readonly authorize: string;
  readonly token: string;
  readonly userinfo: string;
  readonly discovery: string;
  readonly jwks: string;
}

/** The OpenID Connect settings, with defaults applied. */
export interface OIDCSettings {
  readonly discovery: boolean;
  readonly alg: MockSigningAlgorithm;
  readonly idTokenTTL: number;
  readonly idTokenClaims: MockOIDCOptions["idTokenClaims"];
  readonly tamperIdToken: MockOIDCOptions["tamperIdToken"];
  readonly metadata: MockOIDCOptions["metadata"];
  readonly jwks: MockOIDCOptions["jwks"];
}

/** Every option with its default applied; `oidc` is `undefined` in plain OAuth mode. */
export interface MockSettings {
  readonly base: URL;
  readonly issuer: string;
  readonly basePath: string;
  readonly id: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly clientAuthMethod: ClientAuthMethod;
  readonly knownScopes: ReadonlySet<string>;
  readonly codeTTL: number;
  readonly accessTokenTTL: number;
  readonly clock: () => number;
  readonly issueIss: boolean;
  readonly responseMode: "query" | "form_post";
  readonly decide:
    | MockDecision
    | ((request: MockAuthorizationRequest) => MockDecision | Promise<MockDecision>);
  readonly interactive: boolean;
  readonly redirectURIs: readonly string[] | undefined;
  readonly users: MockUser[];
  readonly endpoints: MockEndpoints;
  readonly oidc: OIDCSettings | undefined;
}

/** Checks the options and applies the defaults; throws a `TypeError` for a bad option. */
export function resolveOptions(options: MockProviderOptions): MockSettings {
  const oidc = resolveOIDC(options.oidc);
  const base = parseBaseURL(options.baseURL ?? DEFAULT_BASE_URL, { oidc: oidc !== undefined });
  const issuer = base.href.replace(/\/$/, "");
  const settings: MockSettings = {
    base,
    issuer,
    basePath: base.pathname.replace(/\/$/, ""),
    id: options.id ?? MOCK_PROVIDER_ID,
    clientId: options.clientId ?? DEFAULT_CLIENT_ID,
    clientSecret: options.clientSecret ?? DEFAULT_CLIENT_SECRET,
    clientAuthMethod: options.clientAuthMethod ?? "client_secret_basic",
    knownScopes: new Set(options.scopes ?? DEFAULT_SCOPES),
    codeTTL: seconds(options.codeTTL ?? 60, "codeTTL"),
    accessTokenTTL: seconds(options.accessTokenTTL ?? 3600, "accessTokenTTL"),
    clock: options.clock ?? Date.now,
    issueIss: options.issueIss ?? true,
    responseMode: responseModeOption(options.responseMode),
    decide: options.decide ?? "approve",
    interactive: options.interactive ?? false,
    redirectURIs: options.redirectURIs,
    users: options.users ?? [{ ...DEFAULT_USER }],
    endpoints: {
      authorize: `${issuer}/authorize`,
      token: `${issuer}/token`,
      userinfo: `${issuer}/userinfo`,
      discovery: `${issuer}/.well-known/openid-configuration`,
      jwks: `${issuer}/jwks`,
    },
    oidc,
  };
  checkClient(settings);
  checkUsers(settings.users);
  if (options.warn !== undefined && typeof options.warn !== "function") {
    throw new TypeError("Invalid warn option: expected a function.");
  }
  if (!isLoopback(base.hostname)) {
    // Said at creation, so once per mock: a mock on a public host signs anyone in as its users.
    (options.warn ?? console.warn)(
      `WARNING: createMockProvider: baseURL ${base.origin} is not a loopback host, so anyone who can reach this mock can sign in as any of its users; expected a loopback host (e.g. http://mock-oauth.localhost) and the mock only in tests and local development, never in production.`,
    );
  }
  return settings;
}

function responseModeOption(value: unknown): "query" | "form_post" {
  if (value === undefined || value === "query" || value === "form_post") return value ?? "query";
  throw new TypeError('Invalid responseMode option: expected "query" or "form_post".');
}

function resolveOIDC(value: boolean | MockOIDCOptions | undefined): OIDCSettings | undefined {
  if (value === false) return undefined;
  if (value !== undefined && value !== true && (typeof value !== "object" || value === null)) {
    throw new TypeError("Invalid oidc option: expected true, false or an object.");
  }
  const options: MockOIDCOptions = value === undefined || value === true ? {} : value;
  const alg = options.signingAlg ?? "ES256";
  if (alg !== "RS256" && alg !== "ES256") {
    throw new TypeError(`Invalid oidc.signingAlg "${alg}": expected "RS256" or "ES256".`);
  }
  for (const name of ["idTokenClaims", "metadata"] as const) {
    if (options[name] !== undefined && !isOverride(options[name])) {
      throw new TypeError(`Invalid oidc.${name}: expected an object or a function.`);
    }
  }
  for (const name of ["jwks", "tamperIdToken"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function") {
      throw new TypeError(`Invalid oidc.${name}: expected a function.`);
    }
  }
  return {
    discovery: options.discovery ?? false,
    alg,
    idTokenTTL: seconds(options.idTokenTTL ?? 600, "oidc.idTokenTTL"),
    idTokenClaims: options.idTokenClaims,
    tamperIdToken: options.tamperIdToken,
    metadata: options.metadata,
    jwks: options.jwks,
  };
}

function parseBaseURL(value: string, mode: { oidc: boolean }): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(
      `Invalid mock provider baseURL "${value}": expected an absolute http(s) URL.`,
    );
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash) {
    throw new TypeError(
      `Invalid mock provider baseURL "${value}": expected an http(s) URL without query or fragment.`,
    );
  }
  if (mode.oidc && url.protocol === "http:" && !isLoopback(url.hostname)) {
    throw new TypeError(
      `Invalid mock provider baseURL "${value}": an OpenID Connect issuer on plain http must be a loopback host; expected https or e.g. "http://mock-oauth.localhost".`,
    );
  }
  return url;
}

/** The hosts on which a plain `http:` issuer is allowed. */
function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost") ||
    hostname === "127.0.0.1" || hostname === "[::1]";
}

function seconds(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new TypeError(`Invalid ${name} ${value}: expected a positive number of seconds.`);
  }
  return value;
}

function checkClient(settings: MockSettings): void {
  if (settings.id === "" || settings.clientId === "" || settings.clientSecret === "") {
    throw new TypeError(
      "Invalid mock provider options: id, clientId and clientSecret must be non-empty.",
    );
  }
  const method = settings.clientAuthMethod;
  if (method !== "client_secret_basic" && method !== "client_secret_post") {
    throw new TypeError(
      `Invalid clientAuthMethod "${method}": expected "client_secret_basic" or "client_secret_post".`,
    );
  }
}

function checkUsers(users: MockUser[]): void {
  const seen = new Set<string>();
  for (const user of users) {
    if (typeof user.sub !== "string" || user.sub === "" || seen.has(user.sub)) {
      throw new TypeError("Invalid mock users: each needs a unique, non-empty string sub.");
    }
    seen.add(user.sub);
  }
}
