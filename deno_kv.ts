/**
 * `@service-stack/auth/deno-kv`: a session store in Deno KV.
 *
 * @example
 * ```ts ignore
 * import { denoKvStore } from "@service-stack/auth/deno-kv";
 *
 * const store = denoKvStore(await Deno.openKv(), { prefix: ["my-app", "auth"] });
 * ```
 *
 * @module
 */

export {
  denoKvStore,
  type DenoKvStoreOptions,
  type KvAtomicLike,
  type KvEntryLike,
  type KvKey,
  type KvKeyPart,
  type KvLike,
} from "./src/store/deno_kv.ts";
export type {
  HitCount,
  PasskeyStore,
  SessionStore,
  StoredPasskey,
  StoredSession,
} from "./src/store/types.ts";
