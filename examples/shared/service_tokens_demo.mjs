/**
 * The demo's tokens for other services and API keys: the auth service
 * issues an access token for a sample "API" on the same server
 * (`GET /demo/api/hello`), which verifies it as another service would,
 * with `verifyAccessToken` and the service's own `GET /auth/jwks`; the same
 * route also accepts an API key the user creates on the page (a `curl`
 * line shows how). Works on Deno, Node and Bun alike.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { memoryStore } from "@service-stack/auth";
import { verifyAccessToken } from "@service-stack/auth/jose";

const SECURITY_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};

/**
 * @typedef {object} ServiceTokensDemo
 * @property {{ serviceTokens: import("@service-stack/auth").ServiceTokensConfig, apiKeys: import("@service-stack/auth").ApiKeysConfig }} config
 *   The `serviceTokens` and `apiKeys` options.
 * @property {(path: string) => boolean} handles Whether a path is this part's.
 * @property {(auth: { api: { issueAccessToken: Function, verifyApiKey: Function } }) =>
 *   (request: Request) => Promise<Response>} handler Answers `/service_tokens.js`, `/demo/token` and `/demo/api/*`.
 */

/**
 * @param {{ origin: string }} options The demo's origin: the tokens' issuer.
 * @returns {Promise<ServiceTokensDemo>}
 */
export async function createServiceTokensDemo(options) {
  const { origin } = options;
  const audience = `${origin}/demo/api`;
  const script = await readFile(new URL("./service_tokens_page.js", import.meta.url), "utf8");
  // A fresh key pair per start; a real app loads its pairs from its secret store.
  const pair = /** @type {CryptoKeyPair} */ (await crypto.subtle.generateKey(
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["sign", "verify"],
  ));

  /**
   * @param {unknown} body
   * @param {number} status
   * @param {Record<string, string>} [headers]
   */
  function json(body, status, headers = {}) {
    return new Response(JSON.stringify(body), {
      status,
      headers: { "Content-Type": "application/json", ...SECURITY_HEADERS, ...headers },
    });
  }

  return {
    config: {
      serviceTokens: { keys: [pair], issuer: origin },
      apiKeys: { store: memoryStore(), prefix: "demo" },
    },
    handles: (path) =>
      path === "/service_tokens.js" || path === "/demo/token" || path.startsWith("/demo/api/"),
    handler(auth) {
      return async (request) => {
        const { pathname } = new URL(request.url);
        if (pathname === "/service_tokens.js") {
          return new Response(script, {
            headers: { "Content-Type": "text/javascript; charset=utf-8", ...SECURITY_HEADERS },
          });
        }
        if (pathname === "/demo/token" && request.method === "POST") {
          // Same-origin only: the answer holds a token for the signed-in user.
          if (request.headers.get("origin") !== new URL(request.url).origin) {
            return json({ error: "access_denied", error_description: "Cross-origin." }, 403);
          }
          const token = await auth.api.issueAccessToken({ request }, {
            audience,
            scope: "hello:read",
            expiresIn: 300,
          });
          if (token === null) {
            return json(
              { error: "invalid_session_token", error_description: "Not signed in." },
              401,
            );
          }
          return json({ token, audience }, 200);
        }
        if (pathname === "/demo/api/hello" && request.method === "GET") {
          // The sample "API": what another service does with either kind of credential.
          const header = request.headers.get("authorization") ?? "";
          const credential = header.startsWith("Bearer ") ? header.slice(7) : "";
          const unauthorized = json(
            {
              error: "invalid_token",
              error_description: "Expected a valid Bearer token or API key.",
            },
            401,
            { "WWW-Authenticate": 'Bearer error="invalid_token"' },
          );
          if (credential.startsWith("demo_")) {
            const key = await auth.api.verifyApiKey(request);
            if (key === null) return unauthorized;
            return json(
              { hello: key.sub, via: "API key", keyId: key.keyId, scopes: key.scopes },
              200,
            );
          }
          try {
            const claims = await verifyAccessToken(credential, {
              issuer: origin,
              audience,
              jwksURL: `${origin}/auth/jwks`,
            });
            return json({ hello: claims.sub, via: "access token", scope: claims.scope }, 200);
          } catch {
            return unauthorized;
          }
        }
        return json({ error: "invalid_request", error_description: "Unknown endpoint." }, 404);
      };
    },
  };
}
