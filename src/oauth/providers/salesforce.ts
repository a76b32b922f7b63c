/**
 * Salesforce (OpenID Connect).
 *
 * Checked 2026-11-23 against
 * https://help.salesforce.com/s/articleView?id=xcloud.remoteaccess_using_openid_discovery_endpoint.htm,
 * https://help.salesforce.com/s/articleView?id=xcloud.remoteaccess_oauth_web_server_flow.htm,
 * https://help.salesforce.com/s/articleView?id=xcloud.remoteaccess_using_userinfo_endpoint.htm
 * and the Connect REST API quick start
 * (https://developer.salesforce.com/docs/atlas.en-us.chatterapi.meta/chatterapi/quickstart_connecting.htm):
 * issuer `https://login.salesforce.com` (`https://test.salesforce.com` for
 * sandboxes, or the org's My Domain, whose discovery document names itself
 * as issuer); endpoints `{issuer}/services/oauth2/authorize`, `/token`,
 * `/userinfo` and JWKS `{issuer}/id/keys`, as the discovery document lists
 * them; the `issuer` option moves every endpoint to that host. PKCE:
 * `code_challenge` (SHA-256 of the verifier, base64url) and
 * `code_verifier` are documented and recommended for the web server flow.
 * Client credentials: `client_id` and `client_secret` as form parameters,
 * as Salesforce's token examples send them (used). Email: the user info
 * has `email_verified`, which Salesforce sets once the user verifies the
 * address (for example through the welcome email's link); the email is
 * used only when it is `true`. Not re-read: that ID tokens are `RS256`
 * (the stored copy of the discovery document cuts off before
 * `id_token_signing_alg_values_supported`).
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInOptionValues, BuiltInProvider, BuiltInSettings } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
import { oidcUser } from "../profile.ts";
import { canonicalIssuer } from "./_issuer.ts";

/** The endpoints of a Salesforce login host. */
function salesforceSettings(issuer: string): BuiltInSettings {
  return {
    issuer,
    authorizeURL: `${issuer}/services/oauth2/authorize`,
    accessToken: `${issuer}/services/oauth2/token`,
    userInfo: `${issuer}/services/oauth2/userinfo`,
    jwksURI: `${issuer}/id/keys`,
  };
}

function configureSalesforce(options: BuiltInOptionValues): BuiltInSettings {
  if (options.issuer === undefined) return {};
  return salesforceSettings(canonicalIssuer(options.issuer, {
    id: "salesforce",
    trailingSlash: false,
    example: "https://test.salesforce.com",
    pattern: /^https:\/\/[^/]+$/,
  }));
}

/**
 * Maps Salesforce's claims: `sub` (the identity URL), `name`, `picture`,
 * and `email` only when `email_verified` is `true`.
 *
 * @example
 * ```ts
 * import { salesforceProfile } from "./salesforce.ts";
 *
 * salesforceProfile({ sub: "https://login.salesforce.com/id/00Dx0000000A9y0EAC/005x0000000UnYmAAK", name: "Admin User", email: "admin@example.com", email_verified: true });
 * ```
 */
export function salesforceProfile(claims: Record<string, unknown>): User {
  return oidcUser(claims, "Salesforce", { requireVerified: true });
}

/**
 * The built-in Salesforce provider (OpenID Connect): scopes
 * `openid profile email`, client credentials in the body; `issuer` (or
 * `SALESFORCE_ISSUER`) selects a sandbox or My Domain host. Credentials
 * come from `SALESFORCE_CLIENT_ID` / `SALESFORCE_CLIENT_SECRET` (the
 * consumer key and secret).
 *
 * @example
 * ```ts
 * import { salesforce } from "@service-stack/auth";
 *
 * console.log(salesforce.issuer); // "https://login.salesforce.com"
 * // createAuth({ oauth: [{ id: "salesforce", issuer: "https://test.salesforce.com" }] })
 * ```
 */
export const salesforce: BuiltInProvider = /* @__PURE__ */ defineProvider(
  // Object.assign, not a spread: a bundler can drop a pure call, never a spread.
  /* @__PURE__ */ Object.assign(
    { id: "salesforce" as const, name: "Salesforce" },
    /* @__PURE__ */ salesforceSettings("https://login.salesforce.com"),
    {
      idTokenAlgorithms: /* @__PURE__ */ Object.freeze(["RS256"]),
      scope: "openid profile email",
      responseType: "code",
      clientAuthMethod: "client_secret_post",
      options: /* @__PURE__ */ Object.freeze(["issuer"] as const),
      configure: configureSalesforce,
      profile: salesforceProfile,
      verifiesEmail: true,
    },
  ),
  oidcKit,
);
