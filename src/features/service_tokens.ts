/**
 * The service token features: `serviceTokens` (access tokens for other
 * services, `GET /jwks`) and `apiKeys` (API keys for scripts).
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { resolveApiKeys, resolveServiceTokens } from "../config/service_tokens.ts";
import {
  createApiKey,
  deleteApiKey,
  hasJwks,
  issueAccessToken,
  listApiKeys,
  verifyApiKey,
} from "../core/service_tokens.ts";
import { route } from "../router.ts";
import {
  createApiKeyRoute,
  deleteApiKeyRoute,
  jwksRoute,
  listApiKeysRoute,
} from "../routes/service_tokens.ts";
import type { AuthFeature } from "../config/feature.ts";
import { defineFeature } from "./feature.ts";

function hasApiKeys(ctx: AuthContext): boolean {
  return ctx.apiKeys !== undefined;
}

/**
 * Access tokens for other services (`api.issueAccessToken`) and `GET
 * /jwks`: list it in `features` to use `serviceTokens` with `createAuth` of
 * `core.ts`. With it, `GET /jwks` also publishes the session's key pairs
 * in `signed` mode.
 *
 * @example
 * ```ts
 * import { createAuth, serviceTokens } from "@service-stack/auth/core";
 *
 * const pair = await crypto.subtle.generateKey("Ed25519", false, ["sign", "verify"]) as CryptoKeyPair;
 * const auth = createAuth({
 *   oauth: [],
 *   baseURL: "https://auth.example.com",
 *   features: [serviceTokens],
 *   serviceTokens: { keys: [pair] },
 * });
 * ```
 */
export const serviceTokens: AuthFeature = /* @__PURE__ */ defineFeature({
  key: "serviceTokens",
  resolve: resolveServiceTokens,
  hooks: { issueAccessToken },
  routes: [
    // Public keys, no cookie read: any origin may fetch them.
    /* @__PURE__ */ route("GET", "jwks", jwksRoute, { enabled: hasJwks, anyOrigin: true }),
  ],
});

/**
 * API keys for scripts (`POST /apiKeys`, `GET /apiKeys`, `DELETE
 * /apiKeys/:id`, `api.verifyApiKey`): list it in `features` to use
 * `apiKeys` with `createAuth` of `core.ts`.
 *
 * @example
 * ```ts
 * import { memoryStore } from "@service-stack/auth";
 * import { apiKeys, createAuth } from "@service-stack/auth/core";
 *
 * const auth = createAuth({
 *   oauth: [],
 *   features: [apiKeys],
 *   apiKeys: { store: memoryStore() },
 * });
 * ```
 */
export const apiKeys: AuthFeature = /* @__PURE__ */ defineFeature({
  key: "apiKeys",
  resolve: resolveApiKeys,
  hooks: { verifyApiKey, createApiKey, listApiKeys, deleteApiKey },
  routes: [
    /* @__PURE__ */ route("POST", "apiKeys", createApiKeyRoute, { enabled: hasApiKeys }),
    /* @__PURE__ */ route("GET", "apiKeys", listApiKeysRoute, { enabled: hasApiKeys }),
    /* @__PURE__ */ route("DELETE", "apiKeys/:id", deleteApiKeyRoute, { enabled: hasApiKeys }),
  ],
});
