/**
 * The OpenID Provider metadata (OpenID Connect Discovery 1.0 section 3,
 * RFC 8414) served at `{issuer}/.well-known/openid-configuration`.
 *
 * @module
 */

import { applyOverride } from "./_merge.ts";
import type { MockContext } from "./_state.ts";
import type { MockSettings, OIDCSettings } from "./options.ts";
import { json, methodNotAllowed, type Outcome } from "./responses.ts";

/** The claims the mock can put in ID tokens, besides its users' own. */
const STANDARD_CLAIMS = [
  "iss",
  "sub",
  "aud",
  "exp",
  "iat",
  "nonce",
  "name",
  "email",
  "email_verified",
  "picture",
];

/** The metadata document: what a relying party learns by discovery, before the `metadata` knob. */
export function discoveryDocument(settings: MockSettings): Record<string, unknown> {
  const { endpoints } = settings;
  const claims = new Set(STANDARD_CLAIMS);
  for (const user of settings.users) for (const name of Object.keys(user)) claims.add(name);
  return {
    issuer: settings.issuer,
    authorization_endpoint: endpoints.authorize,
    token_endpoint: endpoints.token,
    userinfo_endpoint: endpoints.userinfo,
    jwks_uri: endpoints.jwks,
    response_types_supported: ["code"],
    response_modes_supported: ["query", "form_post"],
    grant_types_supported: ["authorization_code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: [(settings.oidc as OIDCSettings).alg],
    scopes_supported: [...settings.knownScopes],
    token_endpoint_auth_methods_supported: [settings.clientAuthMethod],
    code_challenge_methods_supported: ["S256"],
    claims_supported: [...claims],
    authorization_response_iss_parameter_supported: settings.issueIss,
  };
}

/** `GET {issuer}/.well-known/openid-configuration`. */
export async function discovery(ctx: MockContext, request: Request): Promise<Outcome> {
  if (request.method !== "GET") return methodNotAllowed("GET");
  const document = await applyOverride(discoveryDocument(ctx.settings), {
    override: (ctx.settings.oidc as OIDCSettings).metadata,
    context: undefined,
    name: "metadata",
  });
  return { response: json(document) };
}
