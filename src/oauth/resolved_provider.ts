/**
 * A provider as the flow sees it once `createAuth` has resolved it: the
 * type every OAuth and OpenID Connect step takes, in a module of its own
 * below the resolution (`resolve.ts`), the built-in providers and the
 * OpenID Connect kit, so that none of them imports another for it.
 *
 * @module
 */

import type { User } from "../types.ts";
import type { ClientAuthMethod, ClientSecret, OAuthTokens, ProviderEndpoints } from "./types.ts";

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
}
