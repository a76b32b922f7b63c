/**
 * `createAuth`'s configuration: its types, its validation (synchronous, with
 * messages that name the fix) and the frozen context built from it once.
 *
 * @module
 */

import type { JWTKey, JWTMode } from "../jose.ts";
import { fail } from "./config/_check.ts";
import { resolveBasePath } from "./config/base_path.ts";
import { type Credentials, type FeatureSettings, resolveFeatures } from "./config/features.ts";
import {
  type AuthCallbacks,
  type AuthEvents,
  type HookSettings,
  resolveHooks,
  type SignInParams,
} from "./config/hooks.ts";
import { type KeySettings, resolveKeys } from "./config/keys.ts";
import { resolveLogger } from "./config/logger.ts";
import { type OIDCSettings, resolveOIDC } from "./config/oidc.ts";
import { type OriginSettings, resolveOrigins } from "./config/origins.ts";
import { type PageSettings, resolvePages } from "./config/pages.ts";
import { resolveSession, type SessionSettings } from "./config/session.ts";
import { type CookieConfig, type CookieJar, resolveCookieJars } from "./cookies/jar.ts";
import { type EnvReader, readRuntimeEnv } from "./env.ts";
import { isRecord } from "./is_record.ts";
import type { Logger, LoggerConfig } from "./logger.ts";
import { type BuiltInTable, type ResolvedProvider, resolveProvidersWith } from "./oauth/resolve.ts";
import type {
  BuiltInProviderEntry,
  BuiltInProviderId,
  OAuthProviderCredentials,
  OIDCProviderCredentials,
} from "./oauth/types.ts";
import { SessionCache } from "./session_cache.ts";
import type { SessionStore } from "./store/types.ts";
import type { StandardSchemaV1 } from "./standard_schema.ts";
import type { User } from "./types.ts";

export type { AuthCallbacks, AuthEvents, Credentials, SignInParams };
export { CSRF_MAX_AGE } from "./config/keys.ts";

/**
 * What application code returns as a user: at least `sub`, and any fields
 * of the app's user. `identity.schema` validates it (and may fill defaults)
 * before it enters a session, so the session's user type comes from the
 * schema alone, never from what a hook happens to return.
 */
export type UserInput<U extends User> = NoInfer<User & Partial<U>>;

/**
 * A provider entry in `oauth`: a built-in id, a built-in with overrides and
 * options, a custom provider with its endpoints, or a custom OpenID Connect
 * provider configured by discovery from its `issuer`.
 */
export type OAuthProviderEntry =
  | BuiltInProviderId
  | BuiltInProviderEntry
  | OAuthProviderCredentials
  | OIDCProviderCredentials;

/** The argument of `createAuth`. */
export interface AuthConfig<
  U extends User = User,
  P extends Record<string, unknown> = Record<string, unknown>,
> {
  /** Providers the service signs users in with (may be empty). */
  oauth: readonly OAuthProviderEntry[];
  /**
   * Signing/encryption secret; overrides the environment `SECRET`. A list
   * rotates secrets: the first issues every token, every entry is read
   * (tokens name their key with `kid`). Without a list, env `PREVIOUS_SECRETS`
   * adds the older ones.
   */
  secret?: JWTKey | readonly JWTKey[];
  /** Prefix of all routes; default `/auth`. */
  basePath?: string;
  /** Cookie name prefix and per-cookie overrides. */
  cookies?: CookieConfig;
  /** Extra trusted origins for CORS and redirects; merged with env `TRUSTED_ORIGINS`. */
  trustedOrigins?: readonly string[] | ((request: Request) => string[] | Promise<string[]>);
  /**
   * The service's public origin, e.g. `https://app.example.com` (default: env `URL` through the
   * lookup, e.g. `AUTH_URL`). When set, it alone decides the OAuth `redirect_uri`, the cookie
   * strategy, redirect validation and the same-origin check: `Host` and proxy headers never do.
   * Recommended in production.
   */
  baseURL?: string;
  /** Read `Forwarded` / `X-Forwarded-*` (experimental; only behind a trusted proxy). Default `false`. */
  trustedProxyHeaders?: boolean;
  /** The user shape carried in sessions. */
  identity?: { schema?: StandardSchemaV1<unknown, U> };
  /** Username/password sign-in. */
  credentials?: {
    /**
     * Failed sign-ins allowed per username per window before 429 with
     * `Retry-After` (default `{ maxAttempts: 5, window: 900 }`); shared by every
     * instance with `session.store`, per process without; `false` turns it off.
     */
    throttle?: false | { maxAttempts?: number; window?: number };
    /** Returns the user for valid credentials, `null` otherwise; may throw `AuthError`. */
    authorize: (
      credentials: Credentials,
      request: Request,
    ) => UserInput<U> | null | Promise<UserInput<U> | null>;
  };
  /** Sign-up. */
  signUp?: {
    /** Validates the sign-up body (any Standard Schema v1 object). */
    schema?: StandardSchemaV1<unknown, P>;
    /** Creates the user record and returns the user; may throw `AuthError`. */
    onCreateUser: (payload: P, request: Request) => UserInput<U> | Promise<UserInput<U>>;
  };
  /** Hooks that change what the library does: `signIn` links or refuses a sign-in. */
  callbacks?: AuthCallbacks<NoInfer<U>>;
  /** Audit events, called after the fact; their errors are logged, never answered. */
  events?: AuthEvents<NoInfer<U>>;
  /**
   * Where browser-facing failures land: `error` (a path or an absolute URL)
   * receives `error` and `error_description` in its query when a sign-in or
   * callback fails with no trusted target to go back to.
   */
  pages?: { error?: string };
  /** Token format: `sealed` (default), `signed` or `encrypted`. */
  jwt?: { mode?: JWTMode };
  /**
   * Sessions: `maxAge` (seconds, default 30 days, at most 400), `updateAge`
   * (seconds, default 1 day); `store` makes sessions revocable (sign-out ends
   * them everywhere, `api.revokeSessions`), each OAuth state single-use and
   * the credentials throttle shared; `storeTimeout` bounds each store call
   * (milliseconds, default 1000): a failing store fails closed (503).
   */
  session?: { maxAge?: number; updateAge?: number; store?: SessionStore; storeTimeout?: number };
  /** `false` silences logs; an object sets `appName`, `level` and a sink. */
  logger?: LoggerConfig;
  /** The `fetch` used for provider calls (tests, proxies). Default: global `fetch`. */
  fetch?: typeof fetch;
  /** Where to read environment values (e.g. a Worker's `env`). Default: the runtime's environment. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The clock, in milliseconds since the epoch (tests). Default `Date.now`. */
  clock?: () => number;
}

/** Everything an instance needs, built once from the config and frozen. */
export interface AuthContext
  extends
    SessionSettings,
    KeySettings,
    OriginSettings,
    FeatureSettings,
    HookSettings,
    PageSettings {
  readonly basePath: string;
  readonly providers: ReadonlyMap<string, ResolvedProvider>;
  readonly jars: { readonly http: CookieJar; readonly https: CookieJar };
  readonly logger: Logger;
  readonly clock: () => number;
  readonly fetch: typeof fetch;
  readonly sessionCache: SessionCache;
  /** OpenID Connect: the instance's discovery and JWKS caches. */
  readonly oidc: OIDCSettings;
}

const CONFIG_KEYS: ReadonlySet<string> = new Set([
  "oauth",
  "secret",
  "basePath",
  "baseURL",
  "cookies",
  "trustedOrigins",
  "trustedProxyHeaders",
  "identity",
  "credentials",
  "signUp",
  "jwt",
  "session",
  "callbacks",
  "events",
  "pages",
  "logger",
  "fetch",
  "env",
  "clock",
]);

function envReader(env: unknown): EnvReader {
  if (env === undefined) return readRuntimeEnv;
  if (!isRecord(env)) fail("env is not an object; expected an object of strings.");
  return (name) => {
    const value = env[name];
    return typeof value === "string" ? value : undefined;
  };
}

function optionalFunction<T>(value: T | undefined, name: string): T | undefined {
  if (value !== undefined && typeof value !== "function") {
    fail(`${name} is not a function; expected a function.`);
  }
  return value;
}

/** Validates the config and builds the frozen context. Throws `TypeError` naming the fix. */
export function buildContext(config: AuthConfig, builtIns: BuiltInTable): AuthContext {
  if (!isRecord(config)) {
    fail("the config is not an object; expected a config object, e.g. createAuth({ oauth: [] }).");
  }
  for (const key of Object.keys(config)) {
    if (!CONFIG_KEYS.has(key)) {
      fail(`unknown config key "${key}"; expected one of ${[...CONFIG_KEYS].join(", ")}.`);
    }
  }
  const read = envReader(config.env);
  const clock = optionalFunction(config.clock, "clock") ?? Date.now;
  const fetchFn = optionalFunction(config.fetch, "fetch") ??
    ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const basePath = resolveBasePath(config.basePath);
  const logger = resolveLogger(config.logger, { read, clock });
  const session = resolveSession(config.session, { logger });
  const keys = resolveKeys(config, { read, maxAge: session.maxAge, clock, logger });
  const origins = resolveOrigins(config, read);
  const features = resolveFeatures(config);
  const hooks = resolveHooks(config);
  const pages = resolvePages(config.pages);
  if (config.cookies !== undefined && !isRecord(config.cookies)) {
    fail("cookies is not an object; expected { prefix, overrides }.");
  }
  let jars: AuthContext["jars"];
  try {
    jars = resolveCookieJars(config.cookies);
  } catch (error) {
    fail(error instanceof Error ? error.message : "cookies is invalid.");
  }
  if (!Array.isArray(config.oauth)) {
    fail("oauth is not an array; expected provider ids or provider objects (it may be empty).");
  }
  const providers = resolveProvidersWith(config.oauth, read, builtIns);
  const oidc = resolveOIDC(providers, { fetch: fetchFn, clock });
  return Object.freeze({
    ...session,
    ...keys,
    ...origins,
    ...features,
    ...hooks,
    ...pages,
    basePath,
    providers,
    jars,
    logger,
    clock,
    fetch: fetchFn,
    sessionCache: new SessionCache(),
    oidc,
  });
}
