/**
 * `createAuth`'s configuration: its types, its validation (synchronous, with
 * messages that name the fix) and the frozen context built from it once.
 *
 * @module
 */

import {
  type CookieConfig,
  type CookieJar,
  FLOW_COOKIE_MAX_AGE,
  resolveCookieJars,
} from "./cookies.ts";
import {
  type EnvReader,
  lookupEnv,
  parseDebug,
  parseList,
  parseLogLevel,
  readRuntimeEnv,
} from "./env.ts";
import { createJose, type Jose, type JWTKey, type JWTMode } from "../jose.ts";
import { createLogger, type Logger, type LoggerConfig } from "./logger.ts";
import { compileOriginPatterns, type OriginMatcher } from "./origins.ts";
import { isStandardSchema, type StandardSchemaV1 } from "./standard_schema.ts";
import type { User } from "./types.ts";
import type { BuiltInProviderId, OAuthProviderCredentials } from "./oauth/types.ts";
import { type ResolvedProvider, resolveProviders } from "./oauth/resolve.ts";
import { SessionCache } from "./session_cache.ts";
import { isRecord } from "./is_record.ts";

/** Username and password submitted to `POST /signIn/credentials`. */
export interface Credentials {
  /** The username (or email) as typed. */
  username: string;
  /** The password as typed. */
  password: string;
}

/** A provider entry in `oauth`: a built-in id, a built-in with overrides, or a custom provider. */
export type OAuthProviderEntry =
  | BuiltInProviderId
  | ({ id: BuiltInProviderId } & Partial<Omit<OAuthProviderCredentials, "id">>)
  | OAuthProviderCredentials;

/** The argument of `createAuth`. */
export interface AuthConfig<
  U extends User = User,
  P extends Record<string, unknown> = Record<string, unknown>,
> {
  /** Providers the service signs users in with (may be empty). */
  oauth: readonly OAuthProviderEntry[];
  /** Signing/encryption secret; overrides the environment `SECRET`. */
  secret?: JWTKey;
  /** Prefix of all routes; default `/auth`. */
  basePath?: string;
  /** Cookie name prefix and per-cookie overrides. */
  cookies?: CookieConfig;
  /** Extra trusted origins for CORS and redirects; merged with env `TRUSTED_ORIGINS`. */
  trustedOrigins?: readonly string[] | ((request: Request) => string[] | Promise<string[]>);
  /** Read `Forwarded` / `X-Forwarded-*` (experimental; only behind a trusted proxy). Default `false`. */
  trustedProxyHeaders?: boolean;
  /** The user shape carried in sessions. */
  identity?: { schema?: StandardSchemaV1<unknown, U> };
  /** Username/password sign-in. */
  credentials?: {
    /** Returns the user for valid credentials, `null` otherwise; may throw `AuthError`. */
    authorize: (credentials: Credentials, request: Request) => U | null | Promise<U | null>;
  };
  /** Sign-up. */
  signUp?: {
    /** Validates the sign-up body (any Standard Schema v1 object). */
    schema?: StandardSchemaV1<unknown, P>;
    /** Creates the user record and returns the user; may throw `AuthError`. */
    onCreateUser: (payload: P, request: Request) => U | Promise<U>;
  };
  /** Token format: `sealed` (default), `signed` or `encrypted`. */
  jwt?: { mode?: JWTMode };
  /** Session lifetime in seconds: `maxAge` (default 30 days), `updateAge` (default 1 day). */
  session?: { maxAge?: number; updateAge?: number };
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
export interface AuthContext {
  readonly basePath: string;
  readonly providers: ReadonlyMap<string, ResolvedProvider>;
  readonly jars: { readonly http: CookieJar; readonly https: CookieJar };
  readonly trustProxyHeaders: boolean;
  readonly staticMatcher: OriginMatcher;
  readonly originsFn?: (request: Request) => string[] | Promise<string[]>;
  readonly identitySchema?: StandardSchemaV1<unknown, User>;
  readonly authorize?: (credentials: Credentials, request: Request) => unknown;
  readonly signUpSchema?: StandardSchemaV1<unknown, Record<string, unknown>>;
  readonly onCreateUser?: (payload: Record<string, unknown>, request: Request) => unknown;
  readonly maxAge: number;
  readonly updateAge: number;
  readonly sessionJose: Jose;
  readonly csrfJose: Jose;
  readonly flowJose: Jose;
  readonly logger: Logger;
  readonly clock: () => number;
  readonly fetch: typeof fetch;
  readonly sessionCache: SessionCache;
}

const DAY = 24 * 60 * 60;
const MODES: readonly JWTMode[] = ["sealed", "signed", "encrypted"];
const CONFIG_KEYS = new Set([
  "oauth",
  "secret",
  "basePath",
  "cookies",
  "trustedOrigins",
  "trustedProxyHeaders",
  "identity",
  "credentials",
  "signUp",
  "jwt",
  "session",
  "logger",
  "fetch",
  "env",
  "clock",
]);

function fail(message: string): never {
  throw new TypeError(`createAuth: ${message}`);
}

/** Refuses keys a nested config object does not have (a typo must not pass silently). */
function knownKeys(value: unknown, name: string, keys: readonly string[]): void {
  if (!isRecord(value)) return;
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) fail(`unknown key "${name}.${key}": expected ${keys.join(", ")}.`);
  }
}

function optionalFunction(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== "function") fail(`${name} must be a function.`);
}

function optionalSchema(value: unknown, name: string): void {
  if (value !== undefined && !isStandardSchema(value)) {
    fail(`${name} must be a Standard Schema v1 object (Zod, Valibot, ArkType, ...).`);
  }
}

function seconds(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    fail(`${name} must be a positive whole number of seconds.`);
  }
  return value;
}

/** Normalises `basePath`: starts with `/`, no trailing slash (root becomes `""`). */
function normalizeBasePath(value: unknown): string {
  if (value === undefined) return "/auth";
  if (typeof value !== "string" || !value.startsWith("/")) {
    fail(`basePath must be a string starting with "/", like "/auth".`);
  }
  if (value === "/") return "";
  if (
    value.endsWith("/") || value.includes("//") ||
    !/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/.test(value)
  ) {
    fail(
      `basePath "${value}" must be a path like "/auth": no trailing or doubled slashes, no spaces.`,
    );
  }
  return value;
}

function envReader(env: unknown): EnvReader {
  if (env === undefined) return readRuntimeEnv;
  if (!isRecord(env)) fail("env must be an object of strings.");
  return (name) => {
    const value = (env as Record<string, unknown>)[name];
    return typeof value === "string" ? value : undefined;
  };
}

/** Validates the config and builds the frozen context. Throws `TypeError` naming the fix. */
export function buildContext(config: AuthConfig): AuthContext {
  if (!isRecord(config)) fail("expected a config object, e.g. createAuth({ oauth: [] }).");
  for (const key of Object.keys(config)) {
    if (!CONFIG_KEYS.has(key)) fail(`unknown config key "${key}".`);
  }
  knownKeys(config.jwt, "jwt", ["mode"]);
  knownKeys(config.session, "session", ["maxAge", "updateAge"]);
  knownKeys(config.identity, "identity", ["schema"]);
  knownKeys(config.credentials, "credentials", ["authorize"]);
  knownKeys(config.signUp, "signUp", ["schema", "onCreateUser"]);
  knownKeys(config.logger, "logger", ["appName", "level", "log"]);
  const read = envReader(config.env);
  const basePath = normalizeBasePath(config.basePath);

  const secret = config.secret ?? lookupEnv("SECRET", read);
  if (secret === undefined || secret === "") {
    fail(
      "no secret: set AUTH_SECRET (or SECRET) in the environment, or pass `secret`; generate one with `openssl rand -base64 32`.",
    );
  }
  const salt = lookupEnv("SALT", read);

  if (config.jwt !== undefined && !isRecord(config.jwt)) {
    fail('jwt must be an object like { mode: "sealed" }.');
  }
  const mode = config.jwt?.mode ?? "sealed";
  if (!MODES.includes(mode)) fail(`jwt.mode must be "sealed", "signed" or "encrypted".`);

  if (config.session !== undefined && !isRecord(config.session)) {
    fail("session must be an object like { maxAge: 2592000, updateAge: 86400 }.");
  }
  const maxAge = seconds(config.session?.maxAge, "session.maxAge", 30 * DAY);
  const updateAge = seconds(config.session?.updateAge, "session.updateAge", DAY);
  if (updateAge > maxAge) fail("session.updateAge must not be larger than session.maxAge.");

  if (config.trustedProxyHeaders !== undefined && typeof config.trustedProxyHeaders !== "boolean") {
    fail("trustedProxyHeaders must be a boolean.");
  }
  const envOrigins = parseList(lookupEnv("TRUSTED_ORIGINS", read) ?? "");
  let configOrigins: readonly string[] = [];
  let originsFn: AuthContext["originsFn"];
  if (typeof config.trustedOrigins === "function") {
    originsFn = config.trustedOrigins;
  } else if (config.trustedOrigins !== undefined) {
    if (
      !Array.isArray(config.trustedOrigins) ||
      !config.trustedOrigins.every((origin) => typeof origin === "string")
    ) {
      fail("trustedOrigins must be an array of origin strings or a function of the request.");
    }
    configOrigins = config.trustedOrigins;
  }
  const staticOrigins = Object.freeze([...configOrigins, ...envOrigins]);
  let staticMatcher: OriginMatcher;
  try {
    staticMatcher = compileOriginPatterns(staticOrigins);
  } catch (error) {
    fail(error instanceof Error ? error.message : "invalid trustedOrigins.");
  }

  if (config.identity !== undefined && !isRecord(config.identity)) {
    fail("identity must be an object like { schema }.");
  }
  optionalSchema(config.identity?.schema, "identity.schema");
  if (config.credentials !== undefined) {
    if (!isRecord(config.credentials) || typeof config.credentials.authorize !== "function") {
      fail("credentials must be an object with an authorize(credentials, request) function.");
    }
  }
  if (config.signUp !== undefined) {
    if (!isRecord(config.signUp) || typeof config.signUp.onCreateUser !== "function") {
      fail("signUp must be an object with an onCreateUser(payload, request) function.");
    }
    optionalSchema(config.signUp.schema, "signUp.schema");
  }
  if (config.cookies !== undefined && !isRecord(config.cookies)) fail("cookies must be an object.");
  optionalFunction(config.fetch, "fetch");
  optionalFunction(config.clock, "clock");
  if (
    config.logger !== undefined && typeof config.logger !== "boolean" && !isRecord(config.logger)
  ) {
    fail("logger must be a boolean or an object like { appName, level, log }.");
  }
  if (isRecord(config.logger)) {
    const { appName, level, log } = config.logger as Record<string, unknown>;
    if (appName !== undefined && typeof appName !== "string") {
      fail("logger.appName must be a string.");
    }
    if (level !== undefined && (typeof level !== "string" || parseLogLevel(level) !== level)) {
      fail('logger.level must be "debug", "info", "warn" or "error".');
    }
    optionalFunction(log, "logger.log");
  }

  let jars: AuthContext["jars"];
  try {
    jars = resolveCookieJars(config.cookies);
  } catch (error) {
    fail(error instanceof Error ? error.message : "invalid cookies config.");
  }

  const clock = config.clock ?? Date.now;
  const fetchFn = config.fetch ?? ((input, init) => fetch(input, init));
  const joseOptions = { salt, maxAge, clock };
  let sessionJose: Jose, csrfJose: Jose, flowJose: Jose;
  try {
    sessionJose = createJose(secret, { ...joseOptions, mode, purpose: "session" });
    csrfJose = createJose(secret, {
      ...joseOptions,
      mode: "signed",
      purpose: "csrf",
      maxAge: CSRF_MAX_AGE,
    });
    flowJose = createJose(secret, {
      ...joseOptions,
      mode: flowMode(secret, mode),
      purpose: "oauth-flow",
      maxAge: FLOW_COOKIE_MAX_AGE,
    });
  } catch (error) {
    // A short or unusable secret is a config error like any other: TypeError, naming the option.
    fail(`invalid secret: ${error instanceof Error ? error.message : "unusable key"}`);
  }

  if (!Array.isArray(config.oauth)) {
    fail("oauth must be an array of provider ids or provider objects (it may be empty).");
  }
  const providers = resolveProviders(config.oauth, read);

  const logger = createLogger(config.logger, {
    level: parseLogLevel(lookupEnv("LOG_LEVEL", read)),
    debug: parseDebug(lookupEnv("DEBUG", read)),
  }, clock);

  return Object.freeze({
    basePath,
    providers,
    jars,
    trustProxyHeaders: config.trustedProxyHeaders ?? false,
    staticMatcher,
    originsFn,
    identitySchema: config.identity?.schema as StandardSchemaV1<unknown, User> | undefined,
    authorize: config.credentials?.authorize,
    signUpSchema: config.signUp?.schema,
    onCreateUser: config.signUp?.onCreateUser as AuthContext["onCreateUser"],
    maxAge,
    updateAge,
    sessionJose,
    csrfJose,
    flowJose,
    logger,
    clock,
    fetch: fetchFn,
    sessionCache: new SessionCache(),
  });
}

/** Lifetime of a CSRF token, in seconds. */
export const CSRF_MAX_AGE = 2 * 60 * 60;

/**
 * Flow cookies must be confidential and tamper-proof: sealed when the secret
 * allows it; with a lone key pair the session mode decides.
 */
function flowMode(secret: JWTKey, mode: JWTMode): JWTMode {
  if (typeof secret === "string" || secret instanceof Uint8Array) return "sealed";
  if (isRecord(secret) && "sign" in secret && "encrypt" in secret) return "sealed";
  return mode;
}
