/**
 * OAuth 2.0 provider configuration types.
 *
 * @module
 */

import type { User } from "../types.ts";

/** How the client authenticates at the token endpoint (RFC 6749 section 2.3.1). */
export type ClientAuthMethod = "client_secret_basic" | "client_secret_post";

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
  /** An OpenID Connect ID token, when issued (not verified in this version). */
  id_token?: string;
}

/** What a profile mapper may use beyond the user-info object itself. */
export interface ProfileContext {
  /** The tokens from the token exchange. */
  tokens: OAuthTokens;
  /**
   * A `fetch` bound to the instance's configured fetch with a timeout, for
   * providers that need a second call (e.g. GitHub's `/user/emails`).
   */
  fetch: typeof fetch;
}

/** A provider's endpoints, scope and profile mapping (no credentials). */
export interface OAuthProviderConfig {
  /** Unique provider identifier; used as `:oauth` in routes. */
  id: string;
  /** Display name. */
  name: string;
  /** Provider authorization endpoint. */
  authorizeURL: string;
  /** Provider token exchange endpoint. */
  accessToken: string;
  /** Provider user information endpoint. */
  userInfo: string;
  /** Scopes requested, space separated. */
  scope: string;
  /** The response type; this version runs the authorization-code flow (`code`). */
  responseType: "code" | "refresh_token" | "id_token";
  /** Maps the provider's user-info object to a `User`. */
  profile?: (profile: Record<string, unknown>, context: ProfileContext) => User | Promise<User>;
  /** The provider's issuer identifier, checked against an RFC 9207 `iss` parameter. */
  issuer?: string;
  /** Client authentication at the token endpoint; default `client_secret_basic`. */
  clientAuthMethod?: ClientAuthMethod;
  /** Extra query parameters for the authorization request (e.g. `prompt`). */
  authorizationParams?: Record<string, string>;
}

/** A custom provider: its configuration plus client credentials. */
export interface OAuthProviderCredentials extends OAuthProviderConfig {
  /** OAuth client id. */
  clientId: string;
  /** OAuth client secret. */
  clientSecret: string;
}

/** Ids of the built-in providers. */
export type BuiltInProviderId =
  | "github"
  | "bitbucket"
  | "figma"
  | "discord"
  | "gitlab"
  | "spotify"
  | "x";

/** A built-in provider: configuration with a profile mapper always present. */
export interface BuiltInProvider extends OAuthProviderConfig {
  /** The built-in id. */
  id: BuiltInProviderId;
  /** Maps the provider's documented user-info shape to a `User`. */
  profile: (profile: Record<string, unknown>, context: ProfileContext) => User | Promise<User>;
}
