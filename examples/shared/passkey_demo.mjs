/**
 * The demo's passkeys: where they live and who they sign in. Kept apart from
 * `demo.mjs` so that the passkey parts of the demo read in one place; the
 * page side is `passkey_page.js` (served as `/passkey.js`).
 *
 * @module
 */

import { memoryStore } from "@service-stack/auth";

/**
 * @typedef {object} DemoUser
 * @property {string} sub
 * @property {string} name
 * @property {string} [email]
 */

/**
 * The `passkeys` option of the demo: passkeys in memory (lost when the
 * server stops; `redisStore`, `denoKvStore` or your own table keep them),
 * and `findUser` over the demo's users.
 *
 * @param {(sub: string) => DemoUser | undefined} lookup Finds a demo user by `sub`.
 * @returns {import("@service-stack/auth").PasskeysConfig}
 */
export function passkeyConfig(lookup) {
  return {
    store: memoryStore(),
    findUser(sub) {
      const user = lookup(sub);
      if (user === undefined) return null;
      // Only what a session shows: never a stored password hash.
      return user.email === undefined
        ? { sub: user.sub, name: user.name }
        : { sub: user.sub, name: user.name, email: user.email };
    },
  };
}
