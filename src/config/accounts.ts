/**
 * `accounts`: linked accounts and provider tokens. The app hands over where
 * accounts live (`store`, an `AccountStore`); the library seals the tokens
 * itself, so the store never holds one in clear.
 *
 * @module
 */

import { isRecord } from "../is_record.ts";
import { readAccount } from "../store/_accounts.ts";
import { bounded, DEFAULT_STORE_TIMEOUT_MS } from "../store/guard.ts";
import type { AccountStore, StoredAccount } from "../store/types.ts";
import { fail, knownKeys } from "./_check.ts";
import type { FeatureInputs } from "./feature.ts";

/** The `accounts` option of `createAuth`. */
export interface AccountsConfig {
  /**
   * Where linked accounts live: `memoryStore()`, `redisStore(client)`,
   * `denoKvStore(kv)` or the app's own table (an `AccountStore`).
   */
  store: AccountStore;
}

/** A refresh in flight in this process, by account. */
export type RefreshInFlight = Map<string, Promise<unknown>>;

/** The resolved `accounts` option. */
export interface AccountSettings {
  readonly accounts?: {
    /** The store, each call bounded by `session.storeTimeout` and its answers checked. */
    readonly store: AccountStore;
    /** Refreshes in flight in this instance (single flight in a process). */
    readonly refreshing: RefreshInFlight;
  };
}

const STORE_METHODS = ["saveAccount", "getAccount", "listAccounts", "deleteAccount"] as const;

function isAccountStore(value: unknown): value is AccountStore {
  return isRecord(value) &&
    STORE_METHODS.every((method) =>
      typeof (value as Record<string, unknown>)[method] === "function"
    );
}

/** Wraps the app's store: each call bounded in time, answers checked (garbage fails closed as 503). */
function guardAccountStore(
  store: AccountStore,
  options: { timeoutMs: number; logger: FeatureInputs["logger"] },
): AccountStore {
  const call = <T>(method: string, fn: () => Promise<T>) => bounded(method, fn, options);
  return Object.freeze({
    saveAccount: (account: StoredAccount) =>
      call("saveAccount", async () => {
        await store.saveAccount(account);
      }),
    getAccount: (provider: string, providerAccountId: string) =>
      call("getAccount", async () => {
        const found = await store.getAccount(provider, providerAccountId);
        return found === null || found === undefined
          ? null
          : readAccount(found, { provider, providerAccountId });
      }),
    listAccounts: (sub: string) =>
      call("listAccounts", async () => {
        const list = await store.listAccounts(sub);
        if (!Array.isArray(list)) throw new TypeError("listAccounts answered garbage.");
        return list.map((account) => readAccount(account, { sub }));
      }),
    deleteAccount: (provider: string, providerAccountId: string) =>
      call("deleteAccount", async () =>
        Boolean(await store.deleteAccount(provider, providerAccountId))),
  });
}

/** Resolves `accounts` (given); the account routes answer 404 without it. */
export function resolveAccounts(value: unknown, inputs: FeatureInputs): AccountSettings {
  if (!isRecord(value)) fail("accounts is not an object; expected { store }.");
  knownKeys(value, "accounts", ["store"]);
  if (!isAccountStore(value.store)) {
    fail(
      "accounts.store is not an AccountStore; expected memoryStore(), redisStore(client), denoKvStore(kv) or an object with saveAccount, getAccount, listAccounts and deleteAccount.",
    );
  }
  if (inputs.readableFlowTokens) {
    fail(
      "accounts need to seal provider tokens, and a lone signing key cannot encrypt; expected a string secret, { sign, encrypt } or an encryption key.",
    );
  }
  const session = isRecord(inputs.config.session) ? inputs.config.session : {};
  const timeoutMs = typeof session.storeTimeout === "number"
    ? session.storeTimeout
    : DEFAULT_STORE_TIMEOUT_MS;
  return Object.freeze({
    accounts: Object.freeze({
      store: guardAccountStore(value.store, { timeoutMs, logger: inputs.logger }),
      refreshing: new Map(),
    }),
  });
}
