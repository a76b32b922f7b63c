/**
 * The passkeys feature: WebAuthn registration, sign-in, listing and
 * deletion (`passkeys` in the config).
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { resolvePasskeys } from "../config/passkeys.ts";
import { deletePasskey, listPasskeys } from "../core/passkeys.ts";
import { route } from "../router.ts";
import {
  deletePasskeyRoute,
  listPasskeysRoute,
  passkeySignInRoute,
  registerOptionsRoute,
  registerRoute,
  signInOptionsRoute,
} from "../routes/passkeys.ts";
import type { AuthFeature } from "../config/feature.ts";
import { defineFeature } from "./feature.ts";

function hasPasskeys(ctx: AuthContext): boolean {
  return ctx.passkeys !== undefined;
}

/**
 * Passkeys (their routes, and `api.listPasskeys` / `api.deletePasskey`):
 * list it in `features` to use `passkeys` with `createAuth` of `core.ts`.
 *
 * @example
 * ```ts
 * import { memoryStore } from "@service-stack/auth";
 * import { createAuth, passkeys } from "@service-stack/auth/core";
 *
 * const auth = createAuth({
 *   oauth: [],
 *   features: [passkeys],
 *   passkeys: { store: memoryStore(), findUser: () => null },
 * });
 * ```
 */
export const passkeys: AuthFeature = /* @__PURE__ */ defineFeature({
  key: "passkeys",
  resolve: resolvePasskeys,
  hooks: { listPasskeys, deletePasskey },
  routes: [
    /* @__PURE__ */ route("POST", "passkey/register/options", registerOptionsRoute, {
      enabled: hasPasskeys,
    }),
    /* @__PURE__ */ route("POST", "passkey/register", registerRoute, { enabled: hasPasskeys }),
    /* @__PURE__ */ route("POST", "passkey/signIn/options", signInOptionsRoute, {
      enabled: hasPasskeys,
    }),
    /* @__PURE__ */ route("POST", "passkey/signIn", passkeySignInRoute, { enabled: hasPasskeys }),
    /* @__PURE__ */ route("GET", "passkeys", listPasskeysRoute, { enabled: hasPasskeys }),
    /* @__PURE__ */ route("DELETE", "passkeys/:id", deletePasskeyRoute, { enabled: hasPasskeys }),
  ],
});
