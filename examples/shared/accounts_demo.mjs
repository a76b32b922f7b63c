/**
 * The demo's linked accounts: where they live, how a first sign-in with the
 * mock provider keeps the mock account's own id as the user's `sub`, and
 * `GET /demo/provider-token`, which calls the provider's API with the user's access
 * token on the server (the token itself never reaches the page). The page
 * side is `accounts_page.js` (served as `/accounts.js`).
 *
 * @module
 */

import { memoryStore } from "@service-stack/auth";

/**
 * @param {{ userinfo: string, fetch: typeof fetch }} provider Where the mock's API is, and how to reach it.
 */
export function createAccountsDemo(provider) {
  // One process, lost on restart: redisStore, denoKvStore or your own table keep them.
  const store = memoryStore();
  return {
    /** @type {import("@service-stack/auth").AccountsConfig} */
    config: { store },
    /**
     * `callbacks.signIn`: a mock account signing in for the first time keeps its own id as
     * the user's `sub` (the demo's users are the mock's); a linked one signs in its user.
     *
     * @param {import("@service-stack/auth").SignInParams} params
     */
    async signIn({ user, provider: id, profile, link }) {
      if (link || id !== "mock" || typeof profile?.sub !== "string") return user;
      const linked = await store.getAccount("mock", profile.sub);
      return linked === null ? { ...user, sub: profile.sub } : user;
    },
    /**
     * `GET /demo/provider-token`: the user's mock access token, used here to read their profile at
     * the provider; answers what the provider said and when the token expires.
     *
     * @param {import("@service-stack/auth").Auth} auth
     * @param {Request} request
     */
    async token(auth, request) {
      const headers = { "Content-Type": "application/json", "Cache-Control": "no-store" };
      let token;
      try {
        token = await auth.api.getAccessToken({ request }, "mock");
      } catch (error) {
        const status = /** @type {{ status?: number }} */ (error).status ?? 500;
        return new Response(JSON.stringify({ error: "The provider refused the token." }), {
          status,
          headers,
        });
      }
      if (token === null) {
        return new Response(JSON.stringify({ error: "No linked mock account with tokens." }), {
          status: 404,
          headers,
        });
      }
      const answer = await provider.fetch(provider.userinfo, {
        headers: { Authorization: `Bearer ${token.accessToken}` },
      });
      const profile = await answer.json();
      return new Response(
        JSON.stringify({ expiresAt: token.expiresAt, scope: token.scope, profile }),
        { headers },
      );
    },
  };
}
