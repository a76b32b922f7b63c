/**
 * Microsoft Entra ID (work, school and personal Microsoft accounts),
 * OpenID Connect on the v2.0 endpoints.
 *
 * Checked 2026-11-23 against
 * https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc,
 * https://learn.microsoft.com/en-us/entra/identity-platform/id-token-claims-reference
 * and https://learn.microsoft.com/en-us/entra/identity-platform/optional-claims-reference:
 * endpoints under `https://login.microsoftonline.com/{tenant}` (`common`,
 * `organizations`, `consumers` or a tenant id), `RS256` ID tokens, client
 * credentials in the body, PKCE `S256` supported. Everything is read from
 * the ID token (Graph's user-info adds only a photo URL that needs the
 * token), so no user-info call is made.
 *
 * Issuer: each tenant has its own, `https://login.microsoftonline.com/{tid}/v2.0`;
 * the multi-tenant discovery documents show the template `{tenantid}`. So
 * the provider declares its endpoints and JWKS (no discovery), and
 * `issuerFor` computes the expected `iss` from the verified `tid` claim:
 * with a tenant id, `tid` must be that tenant; with `consumers`, the
 * personal-account tenant `9188040d-6c67-4c5b-b112-36a304b66dad`; with
 * `organizations`, any tenant but that one; with `common`, any tenant.
 *
 * Email: Microsoft documents the `email` claim as unverified and mutable
 * ("never use it for authorization"), and sends no `email_verified`. The
 * email is used only when the optional claim `xms_edov` (email domain owner
 * verified) is `true`; add the optional claims `email` and `xms_edov` to the
 * ID token in the app registration to get it.
 *
 * @module
 */

import type { User } from "../../types.ts";
import type { BuiltInOptionValues, BuiltInProvider, BuiltInSettings } from "../types.ts";
import { defineProvider } from "./_define.ts";
import { oidcKit } from "../oidc/kit.ts";
import {
  buildUser,
  checkEmail,
  firstOf,
  profileObject,
  readFlag,
  readSubject,
  readText,
} from "../profile.ts";

/** The tenant of personal Microsoft accounts. */
export const MICROSOFT_CONSUMERS_TENANT = "9188040d-6c67-4c5b-b112-36a304b66dad";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const AUDIENCES = new Set(["common", "organizations", "consumers"]);
const LOGIN = "https://login.microsoftonline.com";

/**
 * The `issuerFor` hook of a tenant setting: the `iss` an ID token must carry,
 * built from its verified `tid`, or `undefined` (refused) when `tid` is not
 * a tenant id or not one this setting accepts.
 *
 * @example
 * ```ts
 * import { microsoftIssuerFor } from "./microsoft.ts";
 *
 * microsoftIssuerFor("common")({ tid: "72f988bf-86f1-41af-91ab-2d7cd011db47" });
 * // "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0"
 * ```
 */
export function microsoftIssuerFor(
  tenant: string,
): (claims: Readonly<Record<string, unknown>>) => string | undefined {
  const expected = tenant.toLowerCase();
  return (claims) => {
    const tid = claims.tid;
    if (typeof tid !== "string" || !GUID.test(tid)) return undefined;
    if (expected === "consumers" && tid !== MICROSOFT_CONSUMERS_TENANT) return undefined;
    if (expected === "organizations" && tid === MICROSOFT_CONSUMERS_TENANT) return undefined;
    if (!AUDIENCES.has(expected) && tid !== expected) return undefined;
    return `${LOGIN}/${tid}/v2.0`;
  };
}

/** The endpoints, issuer and hook of one tenant setting. */
function tenantSettings(tenant: string): BuiltInSettings {
  const base = `${LOGIN}/${tenant}`;
  return {
    issuer: `${base}/v2.0`,
    authorizeURL: `${base}/oauth2/v2.0/authorize`,
    accessToken: `${base}/oauth2/v2.0/token`,
    jwksURI: `${base}/discovery/v2.0/keys`,
    issuerFor: microsoftIssuerFor(tenant),
  };
}

function configureMicrosoft(options: BuiltInOptionValues): BuiltInSettings {
  const tenant = (options.tenant ?? "common").trim().toLowerCase();
  if (!AUDIENCES.has(tenant) && !GUID.test(tenant)) {
    throw new TypeError(
      `createAuth: provider "microsoft" tenant must be "common", "organizations", "consumers" or a tenant id (a GUID), got ${
        JSON.stringify(options.tenant)
      }; expected e.g. tenant: "72f988bf-86f1-41af-91ab-2d7cd011db47".`,
    );
  }
  return tenantSettings(tenant);
}

/**
 * Maps Microsoft's ID-token claims: `sub` = `sub` (per app and tenant),
 * `name` = `name` or else `preferred_username`, `email` = `email` only when
 * `xms_edov` is `true`. No image (Graph's photo needs the access token).
 *
 * @example
 * ```ts
 * import { microsoftProfile } from "./microsoft.ts";
 *
 * microsoftProfile({ sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", name: "Megan Bowen", email: "megan@contoso.com", xms_edov: true });
 * // { sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", name: "Megan Bowen", email: "megan@contoso.com" }
 * ```
 */
export function microsoftProfile(claims: Record<string, unknown>): User {
  const object = profileObject(claims, "Microsoft");
  return buildUser({
    sub: readSubject(object.sub),
    name: firstOf([object.name, object.preferred_username], readText),
    email: readFlag(object.xms_edov) === true ? checkEmail(object.email) : undefined,
  }, "Microsoft");
}

/**
 * The built-in Microsoft Entra ID provider (OpenID Connect): scopes
 * `openid profile email`, tenant `common` unless `tenant` (or
 * `MICROSOFT_TENANT_ID`) says otherwise, client credentials in the body.
 * Credentials come from `MICROSOFT_CLIENT_ID` / `MICROSOFT_CLIENT_SECRET`.
 *
 * @example
 * ```ts
 * import { microsoft } from "@service-stack/auth";
 *
 * console.log(microsoft.authorizeURL); // "https://login.microsoftonline.com/common/oauth2/v2.0/authorize"
 * // createAuth({ oauth: [{ id: "microsoft", tenant: "72f988bf-86f1-41af-91ab-2d7cd011db47" }] })
 * ```
 */
export const microsoft: BuiltInProvider = /* @__PURE__ */ defineProvider(
  // Object.assign, not a spread: a bundler can drop a pure call, never a spread.
  /* @__PURE__ */ Object.assign(
    { id: "microsoft" as const, name: "Microsoft" },
    /* @__PURE__ */ tenantSettings("common"),
    {
      idTokenAlgorithms: /* @__PURE__ */ Object.freeze(["RS256"]),
      scope: "openid profile email",
      refreshTokenScope: "offline_access",
      responseType: "code",
      clientAuthMethod: "client_secret_post",
      options: /* @__PURE__ */ Object.freeze(["tenant"] as const),
      configure: configureMicrosoft,
      profile: microsoftProfile,
      verifiesEmail: true,
    },
  ),
  oidcKit,
);
