/**
 * The accounts feature: linked accounts and provider tokens (`accounts` in
 * the config): sign-in through a provider links its account, `POST
 * /link/:provider` links more, `GET /accounts` and `DELETE
 * /accounts/:provider/:providerAccountId` list and unlink, and
 * `api.getAccessToken` hands out tokens that refresh themselves.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { resolveAccounts } from "../config/accounts.ts";
import {
  accountAuthorization,
  accountUser,
  completeLink,
  linkSession,
  prepareAccount,
  saveAccount,
} from "../core/accounts.ts";
import { getAccessToken, listAccounts, unlinkAccount } from "../core/accounts.ts";
import { route } from "../router.ts";
import { linkRoute, listAccountsRoute, unlinkRoute } from "../routes/accounts.ts";
import type { AuthFeature } from "../config/feature.ts";
import { defineFeature } from "./feature.ts";

function hasAccounts(ctx: AuthContext): boolean {
  return ctx.accounts !== undefined;
}

/**
 * Linked accounts and provider tokens (their routes, `api.listAccounts`,
 * `api.unlinkAccount`, `api.getAccessToken`): list it in `features` to use
 * `accounts` with `createAuth` of `core.ts`.
 *
 * @example
 * ```ts
 * import { memoryStore } from "@service-stack/auth";
 * import { accounts, createAuth, github } from "@service-stack/auth/core";
 *
 * const auth = createAuth({
 *   oauth: [github],
 *   features: [accounts],
 *   accounts: { store: memoryStore() },
 * });
 * ```
 */
export const accounts: AuthFeature = /* @__PURE__ */ defineFeature({
  key: "accounts",
  resolve: resolveAccounts,
  hooks: {
    accountUser,
    prepareAccount,
    saveAccount,
    accountAuthorization,
    linkSession,
    completeLink,
    listAccounts,
    unlinkAccount,
    getAccessToken,
  },
  routes: [
    /* @__PURE__ */ route("POST", "link/:provider", linkRoute, { enabled: hasAccounts }),
    /* @__PURE__ */ route("GET", "accounts", listAccountsRoute, { enabled: hasAccounts }),
    /* @__PURE__ */ route("DELETE", "accounts/:provider/:providerAccountId", unlinkRoute, {
      enabled: hasAccounts,
    }),
  ],
});
