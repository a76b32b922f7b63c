/**
 * The `sso` option of `createAuth` (enterprise sign-in: each organization
 * signs in through its own OpenID provider, chosen at request time) and
 * what an instance keeps of it.
 *
 * @module
 */

import type { OIDCInstance } from "../oauth/oidc/kit.ts";
import type { ResolvedProvider } from "../oauth/resolved_provider.ts";

/**
 * What `sso.resolve` is asked: `{ email, domain }` (the address typed in,
 * its domain lower-cased) when a person starts with their address, or
 * `{ organization }` when the page names the organization, and at the
 * callback, where `organization` is the connection `id` the flow started
 * with.
 */
export interface SsoQuery {
  /** The address typed in (trimmed), when the sign-in starts from one. */
  email?: string;
  /** The address's domain, lower-cased, when the sign-in starts from an address. */
  domain?: string;
  /** The organization named by the page, or the connection `id` at the callback. */
  organization?: string;
}

/** One organization's OpenID Connect connection, as `sso.resolve` returns it. */
export interface SsoConnection {
  /** The connection's id: 1-64 of `a-z`, `0-9` and `-`. Sessions name users `<id>:<sub>`. */
  id: string;
  /** The organization's issuer: an `https:` URL (`http:` only on loopback). */
  issuer: string;
  /** The client id registered at the organization's provider. */
  clientId: string;
  /** The client secret; without one the client is public (PKCE only). */
  clientSecret?: string;
  /**
   * The email domains the organization's provider vouches for, matched
   * exactly (no subdomains); an address outside them is dropped.
   */
  domains: readonly string[];
  /** The scope; it must contain `openid`. Default `"openid profile email"`. */
  scope?: string;
  /** `"form_post"` for a provider that posts its answer; default `"query"`. */
  responseMode?: "query" | "form_post";
}

/** The `sso` option of `createAuth`. */
export interface SsoConfig {
  /**
   * Finds the connection for a sign-in: by the address's domain or by the
   * organization (and again by `organization: id` at the callback, for the
   * client credentials). `null` when there is none (404). Called only
   * with checked input.
   */
  resolve: (
    query: SsoQuery,
    request: Request,
  ) => SsoConnection | null | Promise<SsoConnection | null>;
}

/** What an instance keeps of `sso`. */
export interface SsoSettings {
  /** The resolved `sso` option, absent without one. */
  readonly sso?: {
    /** The app's resolver. */
    readonly resolve: SsoConfig["resolve"];
    /** Discovery documents and key sets per issuer, at most 1,000 issuers (LRU). */
    readonly oidc: OIDCInstance;
    /** Connections made into providers, by their fields (at most 1,000). */
    readonly providers: Map<string, ResolvedProvider>;
  };
}
