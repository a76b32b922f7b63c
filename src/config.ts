/**
 * `createAuth`'s configuration: its types, its validation (synchronous, with
 * messages that name the fix) and the frozen context built from it once.
 *
 * @module
 */

import type { JWTKey, JWTMode } from "../jose.ts";
import { fail } from "./config/_check.ts";
import { resolveBasePath } from "./config/base_path.ts";
import type { EmailConfig, EmailSettings } from "./config/email.ts";
import {
  type AuthFeature,
  type FeatureDefinition,
  type FeatureHooks,
  type FeatureInputs,
  resolveFeatureList,
} from "./config/feature.ts";
import {
  type Credentials,
  type FeatureSettings,
  type PasswordReset,
  resolveFeatures,
} from "./config/features.ts";
import {
  type AuthCallbacks,
  type AuthEvents,
  type HookLiterals,
  type HookSettings,
  resolveHooks,
  type SignInParams,
  type SignInResult,
} from "./config/hooks.ts";
import { configuredSecrets, type KeySettings, resolveKeys } from "./config/keys.ts";
import { resolveLogger } from "./config/logger.ts";
import { type OIDCSettings, resolveOIDC } from "./config/oidc.ts";
import { type OriginSettings, resolveOrigins } from "./config/origins.ts";
import { type PageSettings, resolvePages } from "./config/pages.ts";
import type {
  PasskeysConfig,
  PasskeySettings,
  PasskeyUserVerification,
} from "./config/passkeys.ts";
import { resolveSession, type SessionSettings } from "./config/session.ts";
import {
  type RateLimitConfig,
  type RateLimitSettings,
  resolveRateLimit,
} from "./config/rate_limit.ts";
import type { TwoFactorConfig, TwoFactorSettings } from "./config/two_factor.ts";
import type {
  ApiKeysConfig,
  ServiceTokensConfig,
  ServiceTokenSettings,
} from "./config/service_tokens.ts";
import { type CookieConfig, type CookieJar, resolveCookieJars } from "./cookies/jar.ts";
import { type EnvReader, readRuntimeEnv } from "./env.ts";
import { BODY_TIMEOUT_MS } from "./http.ts";
import { isRecord } from "./is_record.ts";
import type { Logger, LoggerConfig } from "./logger.ts";
import type { BuiltInTable } from "./oauth/provider_lookup.ts";
import { resolveProvidersWith } from "./oauth/resolve.ts";
import type { ResolvedProvider } from "./oauth/resolved_provider.ts";
import { oidcKitOf } from "./oauth/providers/_define.ts";
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

export type {
  AuthCallbacks,
  AuthEvents,
  AuthFeature,
  Credentials,
  EmailConfig,
  HookLiterals,
  PasskeysConfig,
  PasskeyUserVerification,
  PasswordReset,
  SignInParams,
  SignInResult,
  TwoFactorConfig,
};
export type { ApiKeysConfig, ServiceTokensConfig };
export type { RateLimitConfig };
export { CSRF_MAX_AGE } from "./config/keys.ts";

/**
 * What application code returns as a user: at least `sub`, and any fields
 * of the app's user (see {@link HookLiterals} for the union).
 * `identity.schema` validates it (and may fill defaults) before it enters a
 * session, so the session's user type comes from the schema alone, never
 * from what a hook happens to return.
 */
export type UserInput<U extends User> = NoInfer<(User & Partial<U>) | HookLiterals<U>>;

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
   * Signing/encryption secret; when set it is the whole key list, and env
   * `SECRET` and `PREVIOUS_SECRETS` are not read. A list rotates secrets:
   * the first issues every token, every entry is read (tokens name their key
   * with `kid`). Without this option, env `SECRET` and `PREVIOUS_SECRETS`.
   * With `createAuth` of `core.ts`, a `CryptoKey`, `CryptoKeyPair` or
   * `{ sign, encrypt }` here needs `features: [webCryptoKeys]`.
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
  /**
   * The forwarding headers your proxy sets, read only behind a proxy you
   * control (default `false`: none). `"forwarded"`: RFC 7239 `Forwarded`.
   * `"x-forwarded"`: `X-Forwarded-Proto` and `X-Forwarded-Host`, which the
   * proxy must set on every request. `"x-forwarded-proto"`: that header
   * alone, the host staying the request's. `true`: `Forwarded`, else
   * `X-Forwarded-Proto`, neither when both families are present. Ignored
   * for the origin when `baseURL` is set.
   */
  trustedProxyHeaders?: boolean | "forwarded" | "x-forwarded" | "x-forwarded-proto";
  /** The user shape carried in sessions. */
  identity?: { schema?: StandardSchemaV1<unknown, U> };
  /** Username/password sign-in. */
  credentials?: {
    /**
     * Attempts allowed per username per window before 429 with `Retry-After`
     * (default `{ maxAttempts: 5, window: 900 }`), counted before `authorize`
     * runs; a right password gives them back. Usernames are folded (NFKC,
     * outer whitespace trimmed, lower case). Shared by every instance with
     * `session.store`, per process without; `false` turns it off.
     */
    throttle?: false | { maxAttempts?: number; window?: number };
    /** Returns the user for valid credentials, `null` otherwise; may throw `AuthError`. */
    authorize: (
      credentials: Credentials,
      request: Request,
    ) => UserInput<U> | null | Promise<UserInput<U> | null>;
    /**
     * Stores a new password once a reset link was used (hash it first); with
     * `email`, enables `POST /password/forgot` and `POST /password/reset`.
     * Every session of the user is revoked afterwards when `session.store` is set.
     */
    resetPassword?: (reset: PasswordReset, request: Request) => void | Promise<void>;
  };
  /** Sign-up. */
  signUp?: {
    /** Validates the sign-up body (any Standard Schema v1 object). */
    schema?: StandardSchemaV1<unknown, P>;
    /** Creates the user record and returns the user; may throw `AuthError`. */
    onCreateUser: (payload: P, request: Request) => UserInput<U> | Promise<UserInput<U>>;
    /** Send a verification message to the new user's address (needs `email`); default `false`. */
    verifyEmail?: boolean;
  };
  /**
   * Sign-in links and codes, verification, change of address and password
   * reset: the library seals the tokens and builds the links, `send`
   * delivers the messages.
   */
  email?: EmailConfig<UserInput<U>>;
  /**
   * Two-factor sign-in (TOTP and backup codes): after any first factor, a
   * user whose `load` returns a value gets no session until the second
   * step (`POST /twoFactor/verify`).
   */
  twoFactor?: TwoFactorConfig;
  /**
   * Passkeys (WebAuthn): registration, sign-in (with autofill), listing and
   * deletion; `store` keeps them, `findUser` finds the user a passkey signs in.
   */
  passkeys?: PasskeysConfig<UserInput<U>>;
  /**
   * Access tokens for other services: the key pairs that sign them
   * (`api.issueAccessToken`) and that `GET /jwks` publishes.
   */
  serviceTokens?: ServiceTokensConfig;
  /** API keys for scripts (`POST`/`GET /apiKeys`, `api.verifyApiKey`), kept as keyed hashes. */
  apiKeys?: ApiKeysConfig;
  /**
   * The optional features `createAuth` of `core.ts` serves, imported from
   * `@service-stack/auth/core` (`features: [email, twoFactor, passkeys]`):
   * `email`, `twoFactor` and `passkeys` work only with their feature, a
   * custom provider with an `issuer` only with `oidc` (built-in OpenID
   * Connect providers bring it), and Web Crypto keys in `secret` only with
   * `webCryptoKeys`, so a bundle holds only the features listed. `createAuth`
   * of `@service-stack/auth` includes every feature (a list changes nothing).
   */
  features?: readonly AuthFeature[];
  /** Hooks that change what the library does: `signIn` links or refuses a sign-in. */
  callbacks?: AuthCallbacks<NoInfer<U>>;
  /** Audit events, called after the fact; their errors are logged, never answered. */
  events?: AuthEvents<NoInfer<U>>;
  /**
   * Where browser-facing failures land: `error` (a path or an absolute URL)
   * receives `error` and `error_description` in its query when a sign-in or
   * callback fails with no trusted target to go back to; `twoFactor` is the
   * app's second-step form (default the built-in `{basePath}/twoFactor`).
   */
  pages?: { error?: string; resetPassword?: string; twoFactor?: string };
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
  /**
   * Per-client limits of every route that signs in, sends a message or
   * creates something (on by default: see the rules in the docs). `false`
   * turns them off; `rules` changes a rule by name (`{ max, window }`, or
   * `false` for no limit on that route); `key(request, route)` chooses what
   * to count by instead of the client's address. Counted in `session.store`
   * when set (shared by instances), else per process.
   */
  rateLimit?: RateLimitConfig;
}

/** Everything an instance needs, built once from the config and frozen. */
export interface AuthContext
  extends
    SessionSettings,
    KeySettings,
    OriginSettings,
    FeatureSettings,
    HookSettings,
    PageSettings,
    EmailSettings,
    TwoFactorSettings,
    PasskeySettings,
    ServiceTokenSettings,
    RateLimitSettings,
    FeatureHooks<AuthContext> {
  readonly basePath: string;
  readonly providers: ReadonlyMap<string, ResolvedProvider>;
  readonly jars: { readonly http: CookieJar; readonly https: CookieJar };
  readonly logger: Logger;
  readonly clock: () => number;
  readonly fetch: typeof fetch;
  readonly sessionCache: SessionCache;
  /** OpenID Connect: the instance's discovery and JWKS caches. */
  readonly oidc: OIDCSettings;
  /** The deadline for reading a request body (`BODY_TIMEOUT_MS`; shorter in tests). */
  readonly bodyTimeoutMs: number;
  /** The instance's optional features (their routes join the route table). */
  readonly features: readonly FeatureDefinition<unknown, AuthContext>[];
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
  "email",
  "twoFactor",
  "passkeys",
  "serviceTokens",
  "apiKeys",
  "features",
  "jwt",
  "session",
  "callbacks",
  "events",
  "pages",
  "logger",
  "fetch",
  "env",
  "clock",
  "rateLimit",
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

/** The value Next.js gives `NEXT_PHASE` while `next build` runs (and imports route modules). */
const NEXT_BUILD_PHASE = "phase-production-build";

/**
 * Whether `next build` is running, read from `NEXT_PHASE` in the config's
 * `env` or the runtime's environment. Never throws.
 */
export function isBuildPhase(config: unknown): boolean {
  try {
    return isRecord(config) && envReader(config.env)("NEXT_PHASE") === NEXT_BUILD_PHASE;
  } catch {
    return false; // an invalid env is reported by buildContext
  }
}

/** What an entry point gives `buildContext` besides the config. */
export interface ContextOptions {
  /** The built-in providers looked up by id (none for `createAuth` of `core.ts`). */
  builtIns: BuiltInTable;
  /** The features the entry always includes (every one for `createAuth` of `mod.ts`). */
  features: readonly AuthFeature[];
}

/**
 * Validates the config and builds the frozen context. Throws `TypeError`
 * naming the fix. Feature config keys are resolved only through the
 * features given (`options.features` and `config.features`).
 */
export function buildContext(config: AuthConfig, options: ContextOptions): AuthContext {
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
  const session = resolveSession(config.session, { logger, clock });
  // Feature config keys are read only through the features given: none is imported here.
  const record = config as unknown as Readonly<Record<string, unknown>>;
  const featureList = resolveFeatureList<AuthContext>(record, options.features);
  // Web Crypto keys in `secret` are read only with the feature that brings their code.
  const webCrypto = featureList.find((feature) => feature.webCrypto)?.webCrypto;
  const keys = resolveKeys(config, { read, maxAge: session.maxAge, clock, logger, webCrypto });
  const origins = resolveOrigins(config, read);
  const features = resolveFeatures(config);
  const hooks = resolveHooks(config);
  const pages = resolvePages(config.pages);
  const rateLimit = resolveRateLimit(config.rateLimit);
  const inputs: FeatureInputs = {
    config: record,
    logger,
    secrets: () => configuredSecrets(config, read),
    readableFlowTokens: keys.readableFlowTokens,
  };
  const resolved: Record<string, unknown> = {};
  for (const feature of featureList) {
    const value = record[feature.key];
    if (value !== undefined) Object.assign(resolved, feature.resolve(value, inputs), feature.hooks);
  }
  const email = resolved as EmailSettings;
  if (features.resetPassword && !email.email) {
    fail(
      "credentials.resetPassword needs email to send the reset links; expected email: { send, findUser }.",
    );
  }
  if (features.verifyEmailOnSignUp && !email.email) {
    fail("signUp.verifyEmail needs email to send the message; expected email: { send, findUser }.");
  }
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
  const providers = resolveProvidersWith(config.oauth, read, options.builtIns);
  for (const reserved of ["email", "passkey"]) {
    if (providers.has(reserved)) {
      fail(
        `"${reserved}" is reserved for the built-in ${reserved} sign-in; choose another provider id.`,
      );
    }
  }
  // The OpenID Connect code comes from the oidc feature or from a built-in provider that uses it.
  const kit = featureList.find((feature) => feature.oidc !== undefined)?.oidc ??
    config.oauth.map(oidcKitOf).find((found) => found !== undefined);
  const oidc = resolveOIDC(providers, { fetch: fetchFn, clock, kit });
  return Object.freeze({
    ...session,
    ...keys,
    ...origins,
    ...features,
    ...hooks,
    ...pages,
    ...rateLimit,
    ...resolved as EmailSettings & TwoFactorSettings & PasskeySettings & FeatureHooks<AuthContext>,
    basePath,
    providers,
    jars,
    logger,
    clock,
    fetch: fetchFn,
    sessionCache: new SessionCache(),
    oidc,
    bodyTimeoutMs: BODY_TIMEOUT_MS,
    features: featureList,
  });
}
