/**
 * `accounts`: linked accounts and provider tokens. The app hands over where
 * accounts live (`store`, an `AccountStore`); the library seals the tokens
 * itself, so the store never holds one in clear.
 *
 * @module
 */

import { isRecord } from "../is_record.ts";
import { purposeJose } from "../jose/for_purpose.ts";
import { checkProviderURL } from "../oauth/provider_checks.ts";
import type { Jose } from "../jose/types.ts";
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
    /** Seals provider tokens: a key of their own (purpose `provider-tokens`), JWE at rest. */
    readonly jose: Jose;
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
      call(
        "deleteAccount",
        async () => Boolean(await store.deleteAccount(provider, providerAccountId)),
      ),
  });
}

/** The JOSE object of sealed provider tokens: encrypted (`dir` + A256GCM), no `exp`. */
function tokenJose(inputs: FeatureInputs): Jose {
  const { keys, salt } = inputs.secrets();
  const clock = typeof inputs.config.clock === "function"
    ? inputs.config.clock as () => number
    : undefined;
  return purposeJose(keys, { purpose: "provider-tokens", salt, clock }, inputs.webCrypto);
}

/** Parameters the flow sets itself: a provider's refresh or first-link parameters may not. */
const RESERVED_PARAMS = [
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "redirect_uri",
  "client_id",
  "client_secret",
  "response_type",
  "response_mode",
  "scope",
];
const SCOPE_TOKENS = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

function checkParams(value: unknown, where: string): void {
  if (value === undefined) return;
  if (
    !isRecord(value) || !Object.values(value).every((item) => typeof item === "string") ||
    Object.keys(value).some((key) => RESERVED_PARAMS.includes(key))
  ) {
    fail(
      `${where} must be an object of strings the flow does not set itself; expected e.g. { access_type: "offline" }.`,
    );
  }
}

/**
 * Checks the linked-account fields of each provider object in `oauth`
 * (built-in ones are known good): `refreshTokenParams`, `firstLinkParams`,
 * `refreshTokenScope`, `revocationURL`.
 */
function checkProviderFields(oauth: unknown): void {
  for (const entry of Array.isArray(oauth) ? oauth : []) {
    if (!isRecord(entry)) continue;
    const id = typeof entry.id === "string" ? entry.id : "?";
    checkParams(entry.refreshTokenParams, `provider "${id}" refreshTokenParams`);
    checkParams(entry.firstLinkParams, `provider "${id}" firstLinkParams`);
    const scope = entry.refreshTokenScope;
    if (scope !== undefined && (typeof scope !== "string" || !SCOPE_TOKENS.test(scope))) {
      fail(
        `provider "${id}" refreshTokenScope must be scope tokens; expected e.g. "offline_access".`,
      );
    }
    if (entry.revocationURL !== undefined) {
      checkProviderURL(entry.revocationURL, { id, key: "revocationURL" });
    }
  }
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
  checkProviderFields(inputs.config.oauth);
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
      jose: tokenJose(inputs),
    }),
  });
}
