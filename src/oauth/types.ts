/**
 * OAuth 2.0 and OpenID Connect provider configuration types.
 *
 * @module
 */

import type { User } from "../types.ts";

/**
 * How the client authenticates at the token endpoint (RFC 6749 section
 * 2.3.1): `client_secret_basic` (HTTP Basic, the default),
 * `client_secret_post` (client id and secret in the form body), or `none`
 * (a public client: only the client id is sent, PKCE carries the proof).
 */
export type ClientAuthMethod = "client_secret_basic" | "client_secret_post" | "none";

/**
 * A client secret: a string, or a function that returns one (awaited before
 * every token request). A function suits secrets that are signed tokens with
 * a short life, such as Apple's ES256 client secret.
 */
export type ClientSecret = string | (() => Promise<string>);

/** Tokens returned by a provider's token endpoint, validated before use. */
export interface OAuthTokens {
  /** The bearer access token. */
  access_token: string;
  /** The token type, usually `bearer`. */
  token_type: string;
  /** Lifetime in seconds, when the provider says. */
  expires_in?: number;
  /** A refresh token, when issued. */
  refresh_token?: string;
  /** Granted scopes, when the provider says. */
  scope?: string;
  /** An OpenID Connect ID token, when issued (validated by the OpenID Connect step). */
  id_token?: string;
}

/**
 * A provider's endpoint URLs as configured (built-in defaults, overridden by
 * the entry, completed by discovery). A mapper builds every follow-up URL
 * from these, never from a hard-coded host.
 */
export interface ProviderEndpoints {
  /** The authorization endpoint. */
  readonly authorizeURL?: string;
  /** The token endpoint. */
  readonly accessToken?: string;
  /** The user-info endpoint. */
  readonly userInfo?: string;
}

/** What a profile mapper may use beyond the user-info object itself. */
export interface ProfileContext {
  /** The tokens from the token exchange. */
  tokens: OAuthTokens;
  /**
   * A `fetch` for the provider's follow-up calls (GitHub's `/user/emails`):
   * bound to the instance's fetch with a timeout, and refusing, before
   * anything is sent, any URL whose origin is not one of
   * {@link ProfileContext.endpoints}'s.
   */
  fetch: typeof fetch;
  /**
   * The provider's configured endpoints. A self-hosted instance (a `userInfo`
   * of `https://git.corp.example/api/v3/user`) moves every follow-up call to
   * its host.
   */
  endpoints: ProviderEndpoints;
  /**
   * The `user` object a `form_post` provider posted beside the code, when it
   * posted one as JSON: Sign in with Apple sends the user's name this way,
   * on the first sign-in only. No signature covers it; it reaches this
   * callback bound to the flow by `state`, like the code. Use it for display
   * fields only, never its email.
   */
  postedUser?: Readonly<Record<string, unknown>>;
}

/**
 * Maps a provider's user-info object (for OpenID Connect: the ID token's
 * claims merged with the user-info response) to a `User`.
 */
export type ProfileMapper = (
  profile: Record<string, unknown>,
  context: ProfileContext,
) => User | Promise<User>;

/**
 * The fields every provider shares: endpoints (optional here), scope,
 * profile mapping and protocol details. {@link OAuthProviderConfig} requires
 * the three endpoints; {@link OIDCProviderConfig} requires an issuer instead.
 */
export interface OAuthProviderBase {
  /** Unique provider identifier; used as `:oauth` in routes. */
  id: string;
  /** Display name. */
  name: string;
  /**
   * Provider authorization endpoint. Optional when `issuer` is set: OpenID
   * Connect discovery fills it.
   */
  authorizeURL?: string;
  /** Provider token endpoint. Optional when `issuer` is set (discovery fills it). */
  accessToken?: string;
  /**
   * Provider user-info endpoint. Optional when `issuer` is set: discovery
   * fills it, and an OpenID Connect provider without one maps the ID token's
   * claims alone (Apple has none).
   */
  userInfo?: string;
  /** Scopes requested, space separated; include `openid` for OpenID Connect. */
  scope: string;
  /** The response type: the authorization-code flow (`code`) is the only one. */
  responseType: "code";
  /** Maps the provider's user-info object to a `User`; default: the default mapping. */
  profile?: ProfileMapper;
  /**
   * The provider's issuer identifier (`https:`, or `http:` on a loopback
   * host): the base of OpenID Connect discovery
   * (`{issuer}/.well-known/openid-configuration`), the `iss` an ID token must
   * carry (see {@link OAuthProviderConfig.issuerFor}), and the value an RFC
   * 9207 `iss` authorization-response parameter must equal. With `createAuth`
   * of `@service-stack/auth/core`, a custom provider with an issuer needs
   * `features: [oidc]`.
   */
  issuer?: string;
  /**
   * The JWKS URL that signs the provider's ID tokens, when not discovered.
   * With `authorizeURL`, `accessToken` and `jwksURI` all set, no discovery
   * is needed.
   */
  jwksURI?: string;
  /**
   * The JWS algorithms accepted for ID tokens, e.g. `["RS256"]`. When set,
   * this list is used instead of the discovered
   * `id_token_signing_alg_values_supported` (explicit settings win, as
   * endpoints do); when unset, the discovered list (its asymmetric
   * algorithms), else `["RS256"]`. `HS256` is accepted only when listed
   * here; its key is then the client secret, at least 32 bytes (LINE's web
   * login).
   */
  idTokenAlgorithms?: readonly string[];
  /**
   * Computes the `iss` an ID token from this provider must carry, from that
   * token's signature-verified claims; `undefined` refuses the token. Without
   * it the expected `iss` is `issuer`. Microsoft's multi-tenant endpoints
   * issue one issuer per tenant (`https://login.microsoftonline.com/{tid}/v2.0`),
   * so its hook builds the issuer from the verified `tid` claim and checks that
   * `tid` against the configured tenant. An RFC 9207 `iss` parameter, when
   * sent, must then equal the verified token's `iss` (it cannot be compared
   * with the configured `issuer` template).
   */
  issuerFor?: (claims: Readonly<Record<string, unknown>>) => string | undefined;
  /**
   * Whether the ID token echoes the `nonce` sent; default `true`. With
   * `false` no `nonce` is sent and an ID token that carries one is refused.
   * LinkedIn's ID tokens carry no `nonce`, so its check cannot run (`state`,
   * the confidential client and the direct token request remain).
   */
  nonce?: boolean;
  /**
   * How the provider returns the authorization response: `query` (the
   * default) or `form_post` (a cross-site `POST` to the callback; Apple
   * requires it when asking for name or email). With `form_post`,
   * `POST {basePath}/callback/:oauth` answers for this provider from any
   * `Origin` (`state` is its CSRF protection), and its flow cookies are
   * `SameSite=None; Secure` over HTTPS so that the cross-site POST carries
   * them. Over plain HTTP browsers refuse `SameSite=None`: the cookies stay
   * `Lax` and only a provider on the same site can complete the flow.
   */
  responseMode?: "query" | "form_post";
  /** Client authentication at the token endpoint; default `client_secret_basic`. */
  clientAuthMethod?: ClientAuthMethod;
  /**
   * The parameter name that carries the client id in the authorization and
   * token requests; default `client_id` (TikTok names it `client_key`).
   */
  clientIdParam?: string;
  /**
   * Whether to use PKCE (`S256`); default `true`. Only for providers that
   * reject a `code_verifier` from a confidential web client (LinkedIn,
   * Slack's OpenID Connect, TikTok's web login): `state` then carries the
   * CSRF protection alone.
   */
  pkce?: boolean;
  /**
   * The user-info request method; default `GET`. `POST` (without a body) for
   * providers whose user endpoint is an RPC call (Dropbox, Slack).
   */
  userInfoMethod?: "GET" | "POST";
  /**
   * Extra headers sent on every call to this provider: token, user info and
   * follow-up calls (Reddit's required `User-Agent`, Notion's
   * `Notion-Version`). They never replace `Authorization`, `Accept` or
   * `Content-Type`.
   */
  headers?: Readonly<Record<string, string>>;
  /** Extra query parameters for the authorization request (e.g. `prompt`). */
  authorizationParams?: Record<string, string>;
  /**
   * The RFC 7009 token revocation endpoint: unlinking an account (with
   * `accounts`) revokes its tokens there. Default: the discovered
   * `revocation_endpoint`, when the provider has one.
   */
  revocationURL?: string;
  /**
   * With `accounts`: authorization parameters that ask the provider for a
   * refresh token, sent on every sign-in and link (Google:
   * `{ access_type: "offline" }`).
   */
  refreshTokenParams?: Readonly<Record<string, string>>;
  /**
   * With `accounts`: a scope that asks for a refresh token, added to
   * `scope` (OpenID Connect `offline_access`; X `offline.access`).
   */
  refreshTokenScope?: string;
  /**
   * With `accounts`: parameters sent when a signed-in user links this
   * provider for the first time (or has no refresh token from it), so that
   * the provider issues a refresh token again (Google: `{ prompt: "consent" }`).
   */
  firstLinkParams?: Readonly<Record<string, string>>;
}

/** A provider's endpoints, scope and profile mapping (no credentials). */
export interface OAuthProviderConfig extends OAuthProviderBase {
  /** Provider authorization endpoint. */
  authorizeURL: string;
  /** Provider token endpoint. */
  accessToken: string;
  /** Provider user-info endpoint. */
  userInfo: string;
}

/**
 * An OpenID Connect provider configured by discovery from its `issuer`:
 * the endpoints are optional (explicit ones win over discovered ones), and
 * so are `scope` and `responseType` when no endpoint is given by hand. With
 * `createAuth` of `@service-stack/auth/core` it needs `features: [oidc]`.
 */
export interface OIDCProviderConfig extends Omit<OAuthProviderBase, "scope" | "responseType"> {
  /** The issuer identifier; `{issuer}/.well-known/openid-configuration` is discovered. */
  issuer: string;
  /**
   * Scopes requested, space separated. Default `openid profile email` when
   * the provider is configured by its issuer alone; required (`createAuth`
   * throws without it) when `authorizeURL`, `accessToken` or `userInfo` is
   * given by hand.
   */
  scope?: string;
  /** The response type; default and only value `code`. */
  responseType?: "code";
}

/** A custom provider: its configuration plus client credentials. */
export interface OAuthProviderCredentials extends OAuthProviderConfig {
  /** OAuth client id. */
  clientId: string;
  /** OAuth client secret (not sent when `clientAuthMethod` is `none`). */
  clientSecret: string;
}

/** A custom OpenID Connect provider configured by discovery, plus client credentials. */
export interface OIDCProviderCredentials extends OIDCProviderConfig {
  /** OAuth client id. */
  clientId: string;
  /**
   * OAuth client secret, or a function returning one (awaited per token
   * request). Not needed when `clientAuthMethod` is `none`.
   */
  clientSecret?: ClientSecret;
}

/** Ids of the built-in providers. */
export type BuiltInProviderId =
  | "amazon"
  | "apple"
  | "atlassian"
  | "auth0"
  | "bitbucket"
  | "cognito"
  | "discord"
  | "dropbox"
  | "facebook"
  | "figma"
  | "github"
  | "gitlab"
  | "google"
  | "kakao"
  | "keycloak"
  | "line"
  | "linkedin"
  | "microsoft"
  | "naver"
  | "notion"
  | "okta"
  | "patreon"
  | "reddit"
  | "roblox"
  | "salesforce"
  | "slack"
  | "spotify"
  | "strava"
  | "tiktok"
  | "twitch"
  | "x"
  | "yahoo"
  | "zoom";

/** The options a built-in provider may take, beyond the common fields. */
export type BuiltInOptionName = "issuer" | "tenant" | "teamId" | "keyId" | "privateKey";

/**
 * Options of built-in providers, from the `oauth` entry or else from the
 * environment (`{ID}_ISSUER`, `{ID}_TENANT_ID`, `{ID}_TEAM_ID`,
 * `{ID}_KEY_ID`, `{ID}_PRIVATE_KEY`, through the usual prefixes).
 */
export interface BuiltInProviderOptions {
  /** Issuer of `okta`, `auth0`, `keycloak`, `cognito` (and `salesforce` sandboxes, My Domain). */
  issuer?: string;
  /** Microsoft Entra tenant: `common` (default), `organizations`, `consumers` or a tenant id. */
  tenant?: string;
  /** Apple: the 10-character Team ID that signs the client secret. */
  teamId?: string;
  /** Apple: the Key ID of the Sign in with Apple private key. */
  keyId?: string;
  /** Apple: the `.p8` private key (PKCS#8 PEM) that signs the client secret. */
  privateKey?: string;
}

/**
 * An `oauth` entry for a built-in provider with overrides and options, e.g.
 * `{ id: "microsoft", tenant: "..." }` or `{ id: "okta", issuer: "..." }`.
 */
export type BuiltInProviderEntry =
  & { id: BuiltInProviderId }
  & Partial<Omit<OAuthProviderBase, "id">>
  & BuiltInProviderOptions
  & {
    /** OAuth client id; default from `{ID}_CLIENT_ID`. */
    clientId?: string;
    /** Client secret or a function returning one; default from `{ID}_CLIENT_SECRET`. */
    clientSecret?: ClientSecret;
  };

/** The options a built-in's `configure` receives, already read from the entry or env. */
export interface BuiltInOptionValues extends BuiltInProviderOptions {
  /** The resolved client id (Apple signs it into its client secret). */
  clientId: string;
}

/** What a built-in's `configure` adds to its configuration. */
export type BuiltInSettings = Partial<Omit<OAuthProviderBase, "id">> & {
  clientSecret?: ClientSecret;
};

/** A built-in provider: configuration with a profile mapper always present. */
export interface BuiltInProvider extends OAuthProviderBase {
  /** The built-in id. */
  id: BuiltInProviderId;
  /** Maps the provider's documented user-info shape to a `User`. */
  profile: ProfileMapper;
  /** The options this provider takes (from the entry, or env `{ID}_{OPTION}`). */
  options?: readonly BuiltInOptionName[];
  /**
   * Turns the options into configuration at `createAuth` (synchronously);
   * throws a `TypeError` naming the fix when an option is missing or wrong.
   */
  configure?: (options: BuiltInOptionValues) => BuiltInSettings;
  /**
   * The profile mapper keeps an email only when the provider marks it
   * verified, so a mapped address counts as proven (`emailVerified` on the
   * session user) while this mapper is the one in use.
   */
  verifiesEmail?: boolean;
}
