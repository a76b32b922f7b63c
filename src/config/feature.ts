/**
 * Optional features (email, two-factor, passkeys, Web Crypto keys) as
 * values: what the core needs from one (its config key, its resolver, its
 * hooks into shared paths such as `finishSignIn`, its key support) travels
 * with the feature, so an app built with `createAuth` of `core.ts` bundles
 * only the features it passes.
 *
 * @module
 */

import type { JWTKey } from "../jose/types.ts";
import type { WebCryptoKit } from "../jose/keys.ts";
import type { Logger } from "../logger.ts";
import type { OIDCKit } from "../oauth/oidc/kit.ts";
import type { Session, User } from "../types.ts";
import type { OAuthTokens } from "../oauth/types.ts";
import { fail } from "./_check.ts";
import type { HttpContext } from "./http_context_type.ts";
import { isRecord } from "../is_record.ts";
import type { ApiKey, CreatedApiKey, VerifiedApiKey } from "../service_tokens/types.ts";

/**
 * The name `core.ts` exports each optional feature under: the config key it
 * serves, except `webCryptoKeys`, which lets `secret` hold Web Crypto keys.
 */
export type FeatureKey =
  | "email"
  | "twoFactor"
  | "passkeys"
  | "webCryptoKeys"
  | "serviceTokens"
  | "apiKeys"
  | "sso"
  | "accounts";

/** The features that serve a config key of their own. */
const CONFIG_FEATURE_KEYS = [
  "email",
  "twoFactor",
  "passkeys",
  "serviceTokens",
  "apiKeys",
  "sso",
  "accounts",
] as const;
const FEATURE_KEYS: readonly FeatureKey[] = [...CONFIG_FEATURE_KEYS, "webCryptoKeys"];
// Kept apart so that no message reads as an import statement to the import checks.
const CORE_ENTRY = '"@service-stack/auth/core"';

/** What a first factor answers when the user must still give a code: no session yet. */
export interface TwoFactorRequired {
  /** Always `true`. */
  readonly twoFactorRequired: true;
}

/** What the two-factor gate needs to know about the first factor. */
export interface GateInput {
  /** The validated (and linked) user. */
  user: User;
  /** The provider id, `"credentials"` or `"email"`. */
  provider: string;
  /** Where the browser goes once signed in. */
  redirectTo?: string;
  /**
   * Set only by a passkey sign-in whose authenticator verified the user
   * (WebAuthn `uv`): that is two factors already, so no second step.
   */
  passkeyUserVerified?: boolean;
  /** Accounts: the account a provider sign-in links, prepared (sealed), saved once a session starts. */
  account?: string;
}

/** A passkey as the routes and the API show it: never its public key. */
export interface Passkey {
  /** The credential id, base64url. */
  id: string;
  /** The name the user gave it. */
  name: string;
  /** When it was registered (seconds since the epoch). */
  createdAt: number;
  /** When it last signed in (seconds since the epoch). */
  lastUsedAt?: number;
  /** `"multiDevice"` for a syncable passkey. */
  deviceType: "singleDevice" | "multiDevice";
  /** Whether it is backed up (synced), as the authenticator said at its last sign-in or registration. */
  backedUp: boolean;
  /** Transport hints. */
  transports: string[];
  /** The authenticator model's AAGUID. */
  aaguid: string;
  /** Its COSE algorithm: -8 (EdDSA), -7 (ES256) or -257 (RS256). */
  algorithm: number;
  /** The signature counter last seen (0 for authenticators that keep none). */
  counter: number;
}

/**
 * The core's calls into features, on the context; each is absent when no
 * given feature provides it, and shared code calls it as `ctx.secondStep?.(...)`.
 * `C` is the instance's context (`AuthContext` of `config.ts`, which holds
 * these hooks): a parameter, so that neither module imports the other.
 */
export interface FeatureHooks<C> {
  /**
   * Two-factor: the gate every first factor passes before a session starts;
   * `null` means "no second step".
   */
  readonly secondStep?: (
    ctx: C,
    http: HttpContext,
    input: GateInput,
  ) => Promise<TwoFactorRequired | null>;
  /** Email: sends a verification message to a new user's address (sign-up). */
  readonly sendVerification?: (ctx: C, http: HttpContext, user: User) => Promise<void>;
  /** Passkeys: `api.listPasskeys`. */
  readonly listPasskeys?: (ctx: C, sub: string) => Promise<Passkey[]>;
  /** Passkeys: `api.deletePasskey`. */
  readonly deletePasskey?: (ctx: C, sub: string, id: string) => Promise<boolean>;
  /** Service tokens: `api.issueAccessToken` (`null`: the request has no session). */
  readonly issueAccessToken?: (
    ctx: C,
    subject: { http: HttpContext } | { sub: string },
    options: unknown,
  ) => Promise<string | null>;
  /** API keys: `api.verifyApiKey`. */
  readonly verifyApiKey?: (ctx: C, request: Request) => Promise<VerifiedApiKey | null>;
  /** API keys: `api.createApiKey`. */
  readonly createApiKey?: (ctx: C, sub: string, input: unknown) => Promise<CreatedApiKey>;
  /** API keys: `api.listApiKeys`. */
  readonly listApiKeys?: (ctx: C, sub: string) => Promise<ApiKey[]>;
  /** API keys: `api.deleteApiKey`. */
  readonly deleteApiKey?: (ctx: C, sub: string, id: string) => Promise<boolean>;
  /** Accounts: the user a provider account signs in (linked, or a new random `sub`). */
  readonly accountUser?: (
    ctx: C,
    provider: string,
    providerAccountId: string,
  ) => Promise<AccountUser>;
  /** Accounts: seals a sign-in's tokens into the account to save once the user is certain. */
  readonly prepareAccount?: (
    ctx: C,
    account: AccountUser,
    sub: string,
    tokens: Readonly<OAuthTokens>,
  ) => Promise<string>;
  /** Accounts: saves a prepared account (after the second step, when one is due). */
  readonly saveAccount?: (ctx: C, http: HttpContext, prepared: string) => Promise<void>;
  /** Accounts: the provider with the scope and parameters a request adds (refresh tokens, a link's scope). */
  readonly accountAuthorization?: <P extends AuthorizedProvider>(
    ctx: C,
    provider: P,
    link: { sub: string; scope?: string } | undefined,
  ) => Promise<P>;
  /** Accounts: `api.listAccounts`. */
  readonly listAccounts?: (ctx: C, sub: string) => Promise<LinkedAccount[]>;
  /** Accounts: `api.unlinkAccount`. */
  readonly unlinkAccount?: (
    ctx: C,
    sub: string,
    provider: string,
    providerAccountId: string,
  ) => Promise<boolean>;
  /** Accounts: `api.getAccessToken` (its arguments checked there). */
  readonly getAccessToken?: (
    ctx: C,
    who: unknown,
    provider: unknown,
    options: unknown,
  ) => Promise<ProviderAccessToken | null>;
  /** Accounts: the session a link callback continues (the one that started it), else refused. */
  readonly linkSession?: (ctx: C, http: HttpContext, sub: string) => Promise<object>;
  /** Accounts: completes a link callback; the current session goes on. */
  readonly completeLink?: (
    ctx: C,
    http: HttpContext,
    current: object,
    input: LinkCallbackInput,
  ) => Promise<Session>;
}

/** A linked account as routes and `api.listAccounts` show it: never its tokens. */
export interface LinkedAccount {
  /** The provider id. */
  provider: string;
  /** The provider's id of the account (its subject). */
  providerAccountId: string;
  /** The scopes the provider granted, space-separated. */
  scope: string;
  /** When it was linked (ISO 8601). */
  createdAt: string;
  /** When it or its tokens last changed (ISO 8601). */
  updatedAt: string;
}

/** A provider's access token as `api.getAccessToken` resolves it. */
export interface ProviderAccessToken {
  /** The access token, for the provider's API (`Authorization: Bearer ...`). */
  accessToken: string;
  /** Its type, as the provider named it (usually `bearer`). */
  tokenType: string;
  /** When it expires (ISO 8601), or `null` when the provider gave no lifetime. */
  expiresAt: string | null;
  /** The scopes the provider granted, space-separated. */
  scope: string;
}

/** What {@link FeatureHooks.completeLink} is given besides the session. */
export interface LinkCallbackInput {
  /** The provider (its id and scope). */
  provider: AuthorizedProvider;
  /** The user the provider's profile mapped to (not yet validated). */
  user: unknown;
  /** The provider's user-info object. */
  raw: Readonly<Record<string, unknown>>;
  /** The provider's tokens. */
  tokens: Readonly<OAuthTokens>;
}

/** A provider as linked accounts need it at the authorization request. */
export interface AuthorizedProvider {
  readonly id: string;
  readonly scope: string;
  readonly authorizationParams: Readonly<Record<string, string>>;
}

/** The user a provider account signs in, and the account. */
export interface AccountUser {
  /** The linked `sub`, or a new random one. */
  sub: string;
  /** Whether the account was already linked (then no other `sub` may take it). */
  linked: boolean;
  /** The provider id. */
  provider: string;
  /** The provider's subject. */
  providerAccountId: string;
}

/** What a feature's resolver gets besides its config value. */
export interface FeatureInputs {
  /** The whole config (a feature may read shared options such as `session.storeTimeout`). */
  readonly config: Readonly<Record<string, unknown>>;
  /** The instance's logger. */
  readonly logger: Logger;
  /** The configured secrets, newest first, and the salt. */
  readonly secrets: () => { keys: readonly JWTKey[]; salt: string | undefined };
  /** Whether tokens of the sealed purposes can be read by whoever holds them (a lone signing key). */
  readonly readableFlowTokens: boolean;
  /** Support for Web Crypto keys in `secret`, when the instance has it. */
  readonly webCrypto?: WebCryptoKit;
}

/**
 * An optional feature: pass it in `features` with `createAuth` of `core.ts`
 * (`createAuth` of `@service-stack/auth` includes every feature). Only the
 * library defines features: `email`, `twoFactor`, `passkeys`, `oidc`
 * (OpenID Connect for a custom provider with an issuer) and `webCryptoKeys`
 * (Web Crypto keys in `secret`), exported by `@service-stack/auth/core`.
 *
 * @example
 * ```ts
 * import { createAuth, email, github } from "@service-stack/auth/core";
 *
 * const auth = createAuth({
 *   oauth: [github],
 *   features: [email],
 *   email: { send: (message) => console.log(message.url), findUser: () => null },
 * });
 * ```
 */
export interface AuthFeature {
  /**
   * The config key it serves (`oidc` serves providers with an issuer,
   * `webCryptoKeys` Web Crypto keys in `secret`).
   */
  readonly key:
    | "email"
    | "twoFactor"
    | "passkeys"
    | "oidc"
    | "webCryptoKeys"
    | "serviceTokens"
    | "apiKeys"
    | "sso"
    | "accounts";
}

/**
 * What a feature is inside: what the core needs from it. `R` is the route
 * type (router.ts), `C` the instance's context (see {@link FeatureHooks}).
 */
export interface FeatureDefinition<R, C> extends AuthFeature {
  /** Validates the config key's value (not `undefined`) and returns its context settings. */
  readonly resolve: (value: unknown, inputs: FeatureInputs) => object;
  /** Its calls from shared code. */
  readonly hooks: FeatureHooks<C>;
  /** Its routes, added to the instance's route table. */
  readonly routes: readonly R[];
  /** The OpenID Connect code, which the `oidc` feature carries. */
  readonly oidc?: OIDCKit;
  /** Support for Web Crypto keys in `secret` (the `webCryptoKeys` feature). */
  readonly webCrypto?: WebCryptoKit;
}

function isFeature(value: unknown): value is FeatureDefinition<unknown, never> {
  return isRecord(value) &&
    (FEATURE_KEYS.includes(value.key as FeatureKey) || value.key === "oidc") &&
    typeof value.resolve === "function" && isRecord(value.hooks) && Array.isArray(value.routes);
}

/**
 * The features an instance has: those its entry includes, then those of
 * `config.features` (each once). Throws a `TypeError` for a value that is
 * not a feature, and for a feature's config key set without its feature,
 * naming the import.
 */
export function resolveFeatureList<C>(
  config: Readonly<Record<string, unknown>>,
  included: readonly AuthFeature[],
): readonly FeatureDefinition<unknown, C>[] {
  const listed = config.features ?? [];
  const all: unknown[] = [...included, ...(Array.isArray(listed) ? listed : [listed])];
  if (!all.every(isFeature)) {
    fail(
      `features holds a value that is not a feature; expected features imported from ${CORE_ENTRY}, e.g. features: [email].`,
    );
  }
  // Every feature is one of the library's, defined for the instance's context.
  const byKey = new Map<AuthFeature["key"], FeatureDefinition<unknown, C>>();
  for (const feature of all) {
    const known = byKey.get(feature.key);
    if (known !== undefined && known !== feature) {
      fail(`features lists two "${feature.key}" features; expected each feature once.`);
    }
    byKey.set(feature.key, feature as FeatureDefinition<unknown, C>);
  }
  for (const key of CONFIG_FEATURE_KEYS) {
    if (config[key] !== undefined && !byKey.has(key)) {
      fail(
        `"${key}" needs the ${key} feature with createAuth of core.ts; expected import { ${key} } from ${CORE_ENTRY} and features: [${key}].`,
      );
    }
  }
  return Object.freeze([...byKey.values()]);
}
