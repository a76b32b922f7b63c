/**
 * Turns the `oauth` config entries into validated, frozen providers:
 * built-in ids get their credentials from `{ID}_CLIENT_ID` /
 * `{ID}_CLIENT_SECRET` and their options from the entry or
 * `{ID}_{OPTION}`; custom providers are checked field by field. Every
 * check is synchronous and throws a `TypeError` naming the fix.
 *
 * @module
 */

import { ID_TOKEN_ALGORITHMS as ASYMMETRIC_ID_TOKEN_ALGORITHMS } from "./oidc/id_token.ts";
import { envAccessProblem, type EnvReader, lookupEnv } from "../env.ts";
import { AuthError } from "../errors.ts";
import type { User } from "../types.ts";
import { defaultProfile, isRecord } from "./profile.ts";
import { definitionOf } from "./providers/_define.ts";
import { builtInProviders } from "./providers/mod.ts";
import type {
  BuiltInOptionName,
  BuiltInOptionValues,
  BuiltInProvider,
  ClientAuthMethod,
  ClientSecret,
  OAuthTokens,
  ProfileContext,
  ProfileMapper,
  ProviderEndpoints,
} from "./types.ts";
import { hostBoundFetch } from "./user_info.ts";

/** What the flow hands a resolved provider's `profile`. */
export interface ProfileInput {
  /** The tokens from the token exchange. */
  tokens: OAuthTokens;
  /** The instance's fetch with the provider timeout; the provider binds it to its hosts. */
  fetch: typeof fetch;
  /** Endpoints found by discovery; configured ones win over them. */
  discovered?: ProviderEndpoints;
  /** The `user` object a `form_post` provider posted (see `ProfileContext.postedUser`). */
  postedUser?: Record<string, unknown>;
}

/** A provider ready for the flow: every field present and checked, frozen. */
export interface ResolvedProvider {
  /** Unique provider identifier; used as `:oauth` in routes. */
  readonly id: string;
  /** Display name. */
  readonly name: string;
  /** Authorization endpoint; `undefined` until discovery when only `issuer` is set. */
  readonly authorizeURL?: string;
  /** Token endpoint; `undefined` until discovery when only `issuer` is set. */
  readonly accessToken?: string;
  /** User-info endpoint; `undefined` for ID-token-only providers or until discovery. */
  readonly userInfo?: string;
  /** Scopes requested, space separated. */
  readonly scope: string;
  /** Always `code`. */
  readonly responseType: "code";
  /** OAuth client id. */
  readonly clientId: string;
  /** Client secret (a function is awaited per token request); absent with `none`. */
  readonly clientSecret?: ClientSecret;
  /**
   * Maps the user-info object to a `User` (the provider's own mapper or the
   * default mapping), handing the mapper the configured endpoints and a fetch
   * bound to the hosts of the token and user-info endpoints.
   */
  readonly profile: (profile: Record<string, unknown>, input: ProfileInput) => Promise<User>;
  /** Whether the mapped email is one the provider marked verified (a built-in's own mapper). */
  readonly verifiesEmail: boolean;
  /** Issuer identifier, when configured. */
  readonly issuer?: string;
  /** JWKS URL, when configured. */
  readonly jwksURI?: string;
  /** Accepted ID-token algorithms, when configured. */
  readonly idTokenAlgorithms?: readonly string[];
  /** Expected ID-token `iss` from verified claims, when the provider needs one per tenant. */
  readonly issuerFor?: (claims: Readonly<Record<string, unknown>>) => string | undefined;
  /** Whether the ID token's `nonce` is checked. */
  readonly nonce: boolean;
  /** `query` or `form_post`. */
  readonly responseMode: "query" | "form_post";
  /** Client authentication at the token endpoint. */
  readonly clientAuthMethod: ClientAuthMethod;
  /** Name of the client id parameter (`client_id`, TikTok `client_key`). */
  readonly clientIdParam: string;
  /** Whether PKCE is sent. */
  readonly pkce: boolean;
  /** User-info request method. */
  readonly userInfoMethod: "GET" | "POST";
  /** Extra headers for every call to the provider. */
  readonly headers: Readonly<Record<string, string>>;
  /** Extra authorization request parameters. */
  readonly authorizationParams: Readonly<Record<string, string>>;
  /** RFC 7009 revocation endpoint (configured, else discovered; checked with `accounts`). */
  readonly revocationURL?: string;
  /** With `accounts`: authorization parameters that ask for a refresh token. */
  readonly refreshTokenParams?: Readonly<Record<string, string>>;
  /** With `accounts`: the scope that asks for a refresh token (`offline_access`). */
  readonly refreshTokenScope?: string;
  /** With `accounts`: parameters of a first link (`prompt=consent`). */
  readonly firstLinkParams?: Readonly<Record<string, string>>;
}

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

/** Keys an `oauth` entry may have (a typo must not pass silently). */
const KNOWN_KEYS: ReadonlySet<string> = new Set([
  "id",
  "name",
  "authorizeURL",
  "accessToken",
  "userInfo",
  "scope",
  "responseType",
  "profile",
  "issuer",
  "jwksURI",
  "idTokenAlgorithms",
  "issuerFor",
  "nonce",
  "responseMode",
  "clientAuthMethod",
  "clientIdParam",
  "pkce",
  "userInfoMethod",
  "headers",
  "authorizationParams",
  "revocationURL",
  "refreshTokenParams",
  "refreshTokenScope",
  "firstLinkParams",
  "clientId",
  "clientSecret",
  // Built-in options, and the fields of a spread built-in provider.
  "tenant",
  "teamId",
  "keyId",
  "privateKey",
  "options",
  "configure",
  "verifiesEmail",
]);

/** ID-token algorithms a provider may name (DECISIONS "OpenID Connect"): HS256 only when listed. */
const ID_TOKEN_ALGORITHMS: ReadonlySet<string> = new Set([
  ...ASYMMETRIC_ID_TOKEN_ALGORITHMS,
  "HS256",
]);

/** The scope of a provider configured by its issuer alone. */
const DISCOVERED_SCOPE = "openid profile email";

/** Env key suffix of each built-in option. */
const OPTION_ENV: Readonly<Record<BuiltInOptionName, string>> = {
  issuer: "ISSUER",
  tenant: "TENANT_ID",
  teamId: "TEAM_ID",
  keyId: "KEY_ID",
  privateKey: "PRIVATE_KEY",
};

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

function fail(message: string): never {
  throw new TypeError(`createAuth: ${message}`);
}

function text(entry: Record<string, unknown>, key: string, id: string): string {
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
 * import { checkProviderURL } from "./resolve.ts";
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

function optionalEndpoint(
  merged: Record<string, unknown>,
  key: "authorizeURL" | "accessToken" | "userInfo" | "jwksURI",
  id: string,
): string | undefined {
  return merged[key] === undefined ? undefined : checkProviderURL(merged[key], { id, key });
}

/** An issuer keeps its exact spelling (a trailing slash is significant); only its form is checked. */
function checkIssuer(value: unknown, id: string): string | undefined {
  if (value === undefined) return undefined;
  checkProviderURL(value, { id, key: "issuer" });
  const issuer = value as string;
  if (issuer.includes("?")) {
    fail(`provider "${id}" issuer must not have a query; expected e.g. "https://dev-1.okta.com".`);
  }
  return issuer;
}

function envCredential(id: string, suffix: "CLIENT_ID" | "CLIENT_SECRET", read: EnvReader): string {
  const key = `${id.toUpperCase()}_${suffix}`;
  const value = lookupEnv(key, read);
  const denied = value === undefined ? envAccessProblem(key, read) : undefined;
  if (denied !== undefined) {
    fail(
      `provider "${id}" has no ${
        suffix === "CLIENT_ID" ? "client id" : "client secret"
      }: ${denied}; expected --allow-env (or --allow-env=AUTH_${key}, naming the variables you set), or the value in the provider object.`,
    );
  }
  if (value === undefined) {
    fail(
      `provider "${id}" has no ${
        suffix === "CLIENT_ID" ? "client id" : "client secret"
      }: set ${key} (or AUTH_${key}) in the environment, or pass it in the provider object.`,
    );
  }
  return value;
}

function optionalBoolean(merged: Record<string, unknown>, key: string, id: string): boolean {
  const value = merged[key] ?? true;
  if (typeof value !== "boolean") {
    fail(`provider "${id}" ${key} must be a boolean; expected true or false.`);
  }
  return value;
}

function oneOf<T extends string>(
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

function checkHeaders(value: unknown, id: string): Record<string, string> {
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

function checkAuthorizationParams(
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

function checkAlgorithms(value: unknown, id: string): readonly string[] | undefined {
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

/** Reads a built-in's options from the entry, else from env `{ID}_{OPTION}`. */
function readOptions(
  provider: BuiltInProvider,
  entry: Record<string, unknown>,
  read: EnvReader,
  clientId: string,
): BuiltInOptionValues {
  const values: BuiltInOptionValues = { clientId };
  for (const name of provider.options ?? []) {
    const given = entry[name];
    if (given !== undefined && typeof given !== "string") {
      fail(`provider "${provider.id}" ${name} must be a string; expected e.g. ${name}: "...".`);
    }
    const value = given ?? lookupEnv(`${provider.id.toUpperCase()}_${OPTION_ENV[name]}`, read);
    if (value !== undefined) values[name] = value;
  }
  return values;
}

function entryObject(entry: unknown): Record<string, unknown> {
  if (typeof entry === "string") return { id: entry };
  if (isRecord(entry)) return entry;
  return fail(
    'each oauth entry must be a built-in provider id or a provider object; expected e.g. "github" or { id, name, ... }.',
  );
}

/**
 * Built-in providers by id, for entries that name one (`"github"`,
 * `{ id: "okta", issuer }`); `createAuth` from `core.ts` passes none, so
 * the providers it is not given stay out of a bundle.
 */
export type BuiltInTable = Readonly<Record<string, BuiltInProvider>>;

function builtInOf(table: BuiltInTable, id: string): BuiltInProvider | undefined {
  // Own keys only, so "constructor" or "__proto__" never match.
  return Object.hasOwn(table, id) ? table[id] : undefined;
}

function checkId(object: Record<string, unknown>, entry: unknown, table: BuiltInTable): string {
  const id = object.id;
  if (typeof id !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
    fail(
      `a provider id must be 1-64 letters, digits, "-" or "_", got ${
        JSON.stringify(id)
      }; expected e.g. "github".`,
    );
  }
  if (id === "credentials") {
    fail(`"credentials" is reserved for username/password sign-in; choose another provider id.`);
  }
  if (typeof entry === "string" && builtInOf(table, id) === undefined) {
    if (Object.keys(table).length === 0) {
      fail(
        `provider "${id}" is named by its id, but this createAuth has no table of built-in providers; expected the provider object that @service-stack/auth/core exports (oauth: [${id}]).`,
      );
    }
    fail(
      `unknown built-in provider "${id}": expected one of ${
        Object.keys(table).join(", ")
      }, or a provider object.`,
    );
  }
  for (const key of Object.keys(object)) {
    if (!KNOWN_KEYS.has(key)) {
      fail(
        `provider "${id}" has an unknown key "${key}"; expected the fields of OAuthProviderCredentials.`,
      );
    }
  }
  return id;
}

/** The configured endpoints win; discovered ones only fill gaps. */
function boundProfile(
  mapper: ProfileMapper,
  configured: ProviderEndpoints,
): ResolvedProvider["profile"] {
  return async (raw, input) => {
    const endpoints: ProviderEndpoints = Object.freeze({
      authorizeURL: configured.authorizeURL ?? input.discovered?.authorizeURL,
      accessToken: configured.accessToken ?? input.discovered?.accessToken,
      userInfo: configured.userInfo ?? input.discovered?.userInfo,
    });
    const fetchFn = hostBoundFetch(input.fetch, [endpoints.accessToken, endpoints.userInfo]);
    const context: ProfileContext = { tokens: input.tokens, endpoints, fetch: fetchFn };
    if (input.postedUser !== undefined) context.postedUser = Object.freeze({ ...input.postedUser });
    return await mapper(raw, context);
  };
}

/**
 * The three endpoints, each checked when given; without an issuer all three
 * are required, and a built-in that takes an issuer names it.
 */
function checkEndpoints(
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

/** An object entry as its own definition: its `options` and `configure`, when present, checked. */
function ownDefinition(object: Record<string, unknown>, id: string): BuiltInProvider {
  const { options, configure } = object;
  if (
    options !== undefined &&
    (!Array.isArray(options) || !options.every((name) => Object.hasOwn(OPTION_ENV, name)))
  ) {
    fail(
      `provider "${id}" options must be a list of option names; expected e.g. ["issuer"] or no options.`,
    );
  }
  if (configure !== undefined && typeof configure !== "function") {
    fail(`provider "${id}" configure must be a function; expected (options) => settings.`);
  }
  return object as unknown as BuiltInProvider;
}

/**
 * A provider configured by its issuer alone asks for the OpenID Connect
 * default scope (DECISIONS "JOSE and keys"); one whose endpoints are given
 * by hand must say what it asks for.
 */
function checkScope(
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

function resolveOne(entry: unknown, read: EnvReader, table: BuiltInTable): ResolvedProvider {
  const object = entryObject(entry);
  const id = checkId(object, entry, table);
  // Without the table, a built-in passed as an object (`oauth: [okta]`, `{ ...okta, issuer }`) is
  // found from the object; any other object is its own definition.
  const known = builtInOf(table, id) ?? definitionOf(object);
  const builtIn = known ?? ownDefinition(object, id);
  if (known === undefined && object.verifiesEmail !== undefined) {
    fail(
      `provider "${id}" has verifiesEmail, which only built-in providers declare; expected an email_verified claim in the profile instead.`,
    );
  }
  const clientIdValue = object.clientId ?? envCredential(id, "CLIENT_ID", read);
  const clientId = text({ clientId: clientIdValue }, "clientId", id);
  const settings = builtIn.configure?.(readOptions(builtIn, object, read, clientId)) ?? {};
  const merged: Record<string, unknown> = { ...builtIn, ...settings };
  // The entry's fields win over the settings, except those equal to the definition's (a built-in
  // passed or spread as an object), so that its options (a tenant) still apply.
  const definition = builtIn as unknown as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    if (object[key] !== definition[key]) merged[key] = object[key];
  }
  // An option that is also a field (issuer) keeps the form its provider gave it.
  for (const name of builtIn.options ?? []) {
    if (Object.hasOwn(settings, name)) merged[name] = (settings as Record<string, unknown>)[name];
  }
  merged.clientId = clientId;

  const clientAuthMethod = oneOf<ClientAuthMethod>(merged, "clientAuthMethod", id, [
    "client_secret_basic",
    "client_secret_post",
    "none",
  ]);
  let clientSecret: ClientSecret | undefined;
  if (clientAuthMethod !== "none") {
    const value = merged.clientSecret ?? envCredential(id, "CLIENT_SECRET", read);
    if (typeof value === "function") {
      clientSecret = value as () => Promise<string>;
    } else {
      clientSecret = text({ clientSecret: value }, "clientSecret", id);
    }
  }
  if ((merged.responseType ?? "code") !== "code") {
    fail(
      `provider "${id}" responseType must be "code": this version runs the authorization-code flow; expected responseType: "code".`,
    );
  }
  for (const key of ["profile", "issuerFor"]) {
    if (merged[key] !== undefined && typeof merged[key] !== "function") {
      fail(`provider "${id}" ${key} must be a function; expected (claims) => ... .`);
    }
  }
  const issuer = checkIssuer(merged.issuer, id);
  const configured = checkEndpoints(merged, { id, issuer, builtIn });
  const scope = checkScope(merged.scope, { id, issuer, configured });
  const clientIdParam = merged.clientIdParam ?? "client_id";
  if (typeof clientIdParam !== "string" || !/^[a-z_]{1,32}$/.test(clientIdParam)) {
    fail(`provider "${id}" clientIdParam must be a parameter name; expected e.g. "client_id".`);
  }
  const { authorizeURL, accessToken, userInfo } = configured;
  const mapper = (merged.profile as ProfileMapper | undefined) ?? defaultProfile;
  return Object.freeze({
    id,
    name: text(merged, "name", id),
    ...defined({ authorizeURL, accessToken, userInfo }),
    scope,
    responseType: "code",
    clientId,
    ...defined({ clientSecret }),
    profile: boundProfile(mapper, configured),
    // Only the built-in's own mapper carries its guarantee: a profile of the app's does not.
    verifiesEmail: known?.verifiesEmail === true && mapper === known.profile,
    ...defined({
      issuer,
      jwksURI: optionalEndpoint(merged, "jwksURI", id),
      idTokenAlgorithms: checkAlgorithms(merged.idTokenAlgorithms, id),
      issuerFor: merged.issuerFor as ResolvedProvider["issuerFor"],
    }),
    nonce: optionalBoolean(merged, "nonce", id),
    responseMode: oneOf(merged, "responseMode", id, ["query", "form_post"] as const),
    clientAuthMethod,
    clientIdParam,
    pkce: optionalBoolean(merged, "pkce", id),
    userInfoMethod: oneOf(merged, "userInfoMethod", id, ["GET", "POST"] as const),
    headers: Object.freeze(checkHeaders(merged.headers, id)),
    authorizationParams: Object.freeze(
      checkAuthorizationParams(merged.authorizationParams, id, clientIdParam),
    ),
    // Linked accounts (the accounts feature checks them): refresh tokens and revocation.
    ...defined({
      revocationURL: merged.revocationURL,
      refreshTokenParams: merged.refreshTokenParams,
      refreshTokenScope: merged.refreshTokenScope,
      firstLinkParams: merged.firstLinkParams,
    }),
  }) as ResolvedProvider;
}

/** Copies the keys whose value is not `undefined`. */
function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) out[key as keyof T] = value as T[keyof T];
  }
  return out;
}

/**
 * Resolves every entry against the built-in providers; duplicate ids and
 * missing credentials throw, naming the fix.
 */
export function resolveProviders(
  entries: readonly unknown[],
  read: EnvReader,
): ReadonlyMap<string, ResolvedProvider> {
  return resolveProvidersWith(entries, read, builtInProviders);
}

/**
 * Resolves every entry against `table` (ids it lacks are unknown; an object
 * entry it lacks is its own definition); duplicate ids and missing
 * credentials throw, naming the fix.
 */
export function resolveProvidersWith(
  entries: readonly unknown[],
  read: EnvReader,
  table: BuiltInTable,
): ReadonlyMap<string, ResolvedProvider> {
  const providers = new Map<string, ResolvedProvider>();
  for (const entry of entries) {
    const provider = resolveOne(entry, read, table);
    if (providers.has(provider.id)) {
      fail(`provider id "${provider.id}" is configured twice; expected each id once.`);
    }
    providers.set(provider.id, provider);
  }
  return providers;
}

/**
 * Whether a provider runs OpenID Connect: its scope contains `openid`.
 *
 * @example
 * ```ts
 * import { isOpenIDConnect } from "./resolve.ts";
 *
 * isOpenIDConnect({ scope: "openid email" }); // true
 * ```
 */
export function isOpenIDConnect(provider: { readonly scope: string }): boolean {
  return provider.scope.split(/\s+/).includes("openid");
}

/**
 * Whether a provider's configuration must be completed by discovery before
 * the flow can run: an `issuer` is set and the authorization or token
 * endpoint is missing, or (OpenID Connect) the JWKS URL is.
 *
 * @example
 * ```ts
 * import { needsDiscovery } from "./resolve.ts";
 *
 * needsDiscovery({ issuer: "https://dev-1.okta.com", scope: "openid" }); // true
 * ```
 */
export function needsDiscovery(
  provider: Pick<ResolvedProvider, "issuer" | "authorizeURL" | "accessToken" | "jwksURI" | "scope">,
): boolean {
  if (provider.issuer === undefined) return false;
  return provider.authorizeURL === undefined || provider.accessToken === undefined ||
    (isOpenIDConnect(provider) && provider.jwksURI === undefined);
}

/**
 * A provider endpoint the flow needs, or a 500 `AuthError` when it is not
 * known (an issuer-only provider whose discovery has not run): the flow
 * fails closed rather than guessing a URL.
 *
 * @example
 * ```ts
 * import { requireEndpoint } from "./resolve.ts";
 *
 * requireEndpoint({ id: "github", accessToken: "https://github.com/login/oauth/access_token" }, "accessToken");
 * ```
 */
export function requireEndpoint(
  provider: Pick<ResolvedProvider, "id" | "authorizeURL" | "accessToken" | "userInfo">,
  key: "authorizeURL" | "accessToken" | "userInfo",
): string {
  const url = provider[key];
  if (url === undefined) {
    throw new AuthError(
      "server_error",
      `The provider's ${key} is not known; expected it configured or discovered from its issuer.`,
      { status: 500 },
    );
  }
  return url;
}

/** The metadata members that complete a provider (see {@link withMetadata}). */
export interface DiscoveredMetadata {
  /** The authorization endpoint. */
  readonly authorization_endpoint: string;
  /** The token endpoint. */
  readonly token_endpoint: string;
  /** The user-info endpoint, when the provider has one. */
  readonly userinfo_endpoint?: string;
  /** The JWKS URL. */
  readonly jwks_uri?: string;
  /** RFC 7009 revocation endpoint. */
  readonly revocation_endpoint?: string;
}

/**
 * The provider's endpoints as discovery found them, for a profile mapper's
 * `discovered` (configured endpoints still win there).
 *
 * @example
 * ```ts
 * import { discoveredEndpoints } from "./resolve.ts";
 *
 * discoveredEndpoints({
 *   authorization_endpoint: "https://id.example/authorize",
 *   token_endpoint: "https://id.example/token",
 * }).accessToken; // "https://id.example/token"
 * ```
 */
export function discoveredEndpoints(metadata: DiscoveredMetadata): ProviderEndpoints {
  return Object.freeze({
    authorizeURL: metadata.authorization_endpoint,
    accessToken: metadata.token_endpoint,
    ...defined({ userInfo: metadata.userinfo_endpoint }),
  });
}

/**
 * The provider completed by its discovered metadata: every endpoint and the
 * JWKS URL it does not configure itself are taken from the metadata;
 * configured ones win. Without metadata the provider is returned as is.
 *
 * @example
 * ```ts ignore
 * import { withMetadata } from "./resolve.ts";
 *
 * const complete = withMetadata(provider, await discovery.get(provider.issuer));
 * complete.accessToken; // the configured token endpoint, else the discovered one
 * ```
 */
export function withMetadata(
  provider: ResolvedProvider,
  metadata: DiscoveredMetadata | undefined,
): ResolvedProvider {
  if (metadata === undefined) return provider;
  return Object.freeze({
    ...provider,
    authorizeURL: provider.authorizeURL ?? metadata.authorization_endpoint,
    accessToken: provider.accessToken ?? metadata.token_endpoint,
    ...defined({
      userInfo: provider.userInfo ?? metadata.userinfo_endpoint,
      jwksURI: provider.jwksURI ?? metadata.jwks_uri,
      revocationURL: provider.revocationURL ?? metadata.revocation_endpoint,
    }),
  });
}
