// Against a real, OpenID-certified provider (panva's oidc-provider under
// Node): discovery and JWKS validate, and a full authorization-code flow
// with PKCE and client_secret_basic yields an ID token that validates with
// the nonce sent, and only with it.
import assert from "node:assert/strict";
import { discover, type ProviderMetadata } from "../../../src/oauth/oidc/discovery.ts";
import {
  checkUserInfoSubject,
  type ExpectedIdToken,
  idTokenAlgorithms,
  validateIdToken,
} from "../../../src/oauth/oidc/id_token.ts";
import { createJwks } from "../../../src/oauth/oidc/jwks.ts";
import { codeChallengeS256, randomToken } from "../../../src/oauth/pkce.ts";
import type { ResolvedProvider } from "../../../src/oauth/resolved_provider.ts";
import { exchangeCode } from "../../../src/oauth/token.ts";
import type { OAuthTokens } from "../../../src/oauth/types.ts";
import { fetchUserInfo } from "../../../src/oauth/user_info.ts";
import {
  completeDevInteractions,
  installOidcProvider,
  type OidcProviderServer,
  startOidcProvider,
} from "../../support/oidc_provider.ts";
import { missingTool } from "../../support/tools.ts";
import { assertRefused } from "./_assert.ts";

const REDIRECT_URI = "http://127.0.0.1:9/auth/callback/oidc";

/** Why these tests cannot run here, or undefined when they can. */
async function unavailable(): Promise<string | undefined> {
  if (missingTool("node")) return "no node";
  const install = await installOidcProvider();
  if ("skipped" in install) {
    console.log(`skipped: ${install.skipped}`);
    return install.skipped;
  }
  return undefined;
}

const ignore = (await unavailable()) !== undefined;

/** A signed-in flow: the token response and what the client sent. */
interface Flow {
  metadata: ProviderMetadata;
  tokens: OAuthTokens;
  nonce: string;
}

function providerOf(op: OidcProviderServer, metadata: ProviderMetadata): ResolvedProvider {
  return {
    id: "oidc",
    name: "oidc-provider",
    authorizeURL: metadata.authorization_endpoint,
    accessToken: metadata.token_endpoint,
    userInfo: metadata.userinfo_endpoint!,
    scope: "openid email profile",
    responseType: "code",
    clientId: op.clientId,
    clientSecret: op.clientSecret,
    profile: (profile) => Promise.resolve({ sub: String(profile.sub) }),
    verifiesEmail: false,
    issuer: metadata.issuer,
    clientAuthMethod: "client_secret_basic",
    authorizationParams: {},
    nonce: true,
    responseMode: "query",
    clientIdParam: "client_id",
    pkce: true,
    userInfoMethod: "GET",
    headers: {},
  };
}

/** Runs the authorization-code flow as our sign-in and callback routes will. */
async function signIn(op: OidcProviderServer, login: string): Promise<Flow> {
  const metadata = await discover(op.issuer, { fetch });
  const state = randomToken();
  const nonce = randomToken();
  const codeVerifier = randomToken();
  const url = new URL(metadata.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: op.clientId,
    redirect_uri: REDIRECT_URI,
    scope: "openid email profile",
    state,
    nonce,
    code_challenge: codeChallengeS256(codeVerifier),
    code_challenge_method: "S256",
  }).toString();
  const callback = await completeDevInteractions(url, { redirectURI: REDIRECT_URI, login });
  assert.equal(callback.searchParams.get("error"), null);
  assert.equal(callback.searchParams.get("state"), state);
  assert.equal(callback.searchParams.get("iss"), metadata.issuer);
  const tokens = await exchangeCode(fetch, providerOf(op, metadata), {
    code: callback.searchParams.get("code")!,
    redirectURI: REDIRECT_URI,
    codeVerifier,
  });
  return { metadata, tokens, nonce };
}

function expectationsOf(op: OidcProviderServer, flow: Flow): ExpectedIdToken {
  return {
    issuer: flow.metadata.issuer,
    clientId: op.clientId,
    nonce: flow.nonce,
    algorithms: idTokenAlgorithms(flow.metadata),
    keys: createJwks(flow.metadata.jwks_uri!, { fetch }),
  };
}

Deno.test({
  name: "a real provider's discovery document validates with its JWKS and PKCE support",
  ignore,
  fn: async () => {
    await using op = await startOidcProvider({ redirectURIs: [REDIRECT_URI] });
    const metadata = await discover(op.issuer, { fetch });
    assert.equal(metadata.issuer, op.issuer);
    assert.equal(metadata.jwks_uri, `${op.issuer}/jwks`);
    assert.ok(metadata.id_token_signing_alg_values_supported?.includes("RS256"));
    assert.ok(metadata.code_challenge_methods_supported?.includes("S256"));
    assert.ok(metadata.token_endpoint_auth_methods_supported?.includes("client_secret_basic"));
    assert.equal(metadata.authorization_response_iss_parameter_supported, true);
  },
});

Deno.test({
  name: "a real provider's JWKS gives a key for its RS256 signing key",
  ignore,
  fn: async () => {
    await using op = await startOidcProvider({ redirectURIs: [REDIRECT_URI] });
    const metadata = await discover(op.issuer, { fetch });
    const key = await createJwks(metadata.jwks_uri!, { fetch }).getKey({
      alg: "RS256",
      kid: "op-1",
    });
    assert.equal(key.alg, "RS256");
  },
});

Deno.test({
  name: "a code flow at a real provider yields an ID token that validates with the nonce sent",
  ignore,
  fn: async () => {
    await using op = await startOidcProvider({ redirectURIs: [REDIRECT_URI] });
    const flow = await signIn(op, "alice");
    const claims = await validateIdToken(flow.tokens.id_token, expectationsOf(op, flow));
    assert.equal(claims.sub, "alice");
    assert.equal(claims.aud, op.clientId);
    assert.equal(claims.email, "alice@example.com");
    assert.equal(claims.email_verified, true);
    assert.equal(claims.name, "User alice");
  },
});

Deno.test({
  name: "a real provider's ID token is refused with another nonce",
  ignore,
  fn: async () => {
    await using op = await startOidcProvider({ redirectURIs: [REDIRECT_URI] });
    const flow = await signIn(op, "bob");
    await assertRefused(
      validateIdToken(flow.tokens.id_token, { ...expectationsOf(op, flow), nonce: randomToken() }),
      { code: "invalid_request", status: 400, description: /nonce does not match/ },
    );
  },
});

Deno.test({
  name: "a real provider's user info names the ID token's subject",
  ignore,
  fn: async () => {
    await using op = await startOidcProvider({ redirectURIs: [REDIRECT_URI] });
    const flow = await signIn(op, "carol");
    const claims = await validateIdToken(flow.tokens.id_token, expectationsOf(op, flow));
    const userInfo = await fetchUserInfo(fetch, providerOf(op, flow.metadata), flow.tokens);
    checkUserInfoSubject(userInfo, claims);
    assert.equal(userInfo.email, "carol@example.com");
  },
});
