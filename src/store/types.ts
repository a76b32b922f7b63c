/**
 * The contract between the auth core and a server-side store: revocable
 * sessions, one-time values and shared counters. Adapters: `memoryStore`
 * (this module), `redisStore` (`./redis`) and `denoKvStore` (`./deno-kv`).
 *
 * Times are seconds since the epoch (fractions allowed); every entry a store
 * writes expires on its own, so a store never grows without bound. A store
 * never swallows a failure: a call that cannot be answered rejects (or, with
 * some clients, stays pending while the backend is away), and the caller
 * treats both as "no session".
 *
 * @module
 */

/**
 * One signed-in session as a store keeps it.
 *
 * @example
 * ```ts
 * import type { StoredSession } from "@service-stack/auth";
 *
 * const now = Math.floor(Date.now() / 1000);
 * const session: StoredSession = {
 *   id: crypto.randomUUID(),
 *   sub: "user-1",
 *   createdAt: now,
 *   expiresAt: now + 30 * 24 * 60 * 60,
 *   userAgent: "Mozilla/5.0 (X11; Linux x86_64)",
 * };
 * ```
 */
export interface StoredSession {
  /** The session id (the session token's `jti`); 1 to 256 characters. */
  id: string;
  /** The user the session belongs to; 1 to 256 characters. */
  sub: string;
  /** When the user signed in, in seconds since the epoch. */
  createdAt: number;
  /** When the session ends, in seconds since the epoch; the store forgets it then. */
  expiresAt: number;
  /** The browser that signed in, for a "your devices" list; stores keep at most 256 characters. */
  userAgent?: string;
}

/**
 * What {@linkcode SessionStore.hit} counted.
 *
 * @example
 * ```ts
 * import type { HitCount } from "@service-stack/auth";
 *
 * const counted: HitCount = { count: 3, resetIn: 840 };
 * const retryAfter = counted.count > 5 ? String(counted.resetIn) : undefined;
 * ```
 */
export interface HitCount {
  /** Hits in the current window, this one included. */
  count: number;
  /** Whole seconds (rounded up, at least 1) until the window ends and the count starts over. */
  resetIn: number;
}

/**
 * A server-side store for revocable sessions, one-time values and hit
 * counters, shared by every instance of an app that uses the same backend.
 *
 * Keys (`id`, `sub`, `key`) are non-empty strings of at most 256 characters;
 * other input rejects with a `TypeError`. A value read back from the backend
 * that is not what the store wrote rejects with an `Error`; it is never taken
 * for a session.
 *
 * @example Revoking a session
 * ```ts
 * import { memoryStore, type SessionStore } from "@service-stack/auth";
 *
 * const store: SessionStore = memoryStore();
 * const now = Date.now() / 1000;
 * await store.saveSession({ id: "s1", sub: "user-1", createdAt: now, expiresAt: now + 3600 });
 * console.log(await store.getSession("s1")); // { id: "s1", sub: "user-1", ... }
 * await store.deleteSession("s1"); // true: signed out everywhere
 * console.log(await store.getSession("s1")); // null
 * ```
 */
export interface SessionStore {
  /**
   * Saves a session, or replaces the one with the same id. It joins its
   * user's list and vanishes at `expiresAt`; a session whose `expiresAt` has
   * already passed is removed instead of saved.
   */
  saveSession(session: StoredSession): Promise<void>;
  /**
   * The active session with this id, or `null` when it is unknown, expired
   * or revoked. One round trip to the backend.
   */
  getSession(id: string): Promise<StoredSession | null>;
  /** Revokes one session; resolves `true` when it existed. */
  deleteSession(id: string): Promise<boolean>;
  /** The user's active sessions, in no particular order; expired ones are pruned. */
  listSessions(sub: string): Promise<StoredSession[]>;
  /** Revokes every session of a user; resolves how many there were. */
  deleteSessions(sub: string): Promise<number>;
  /**
   * Marks a one-time value used: resolves `true` only for the first call with
   * this key within `ttlSeconds`, atomically across every instance sharing
   * the backend; `false` for every later call until the mark expires.
   */
  consume(key: string, ttlSeconds: number): Promise<boolean>;
  /**
   * Counts one hit on `key` in a fixed window that starts at the first hit
   * and lasts `windowSeconds`, atomically across instances.
   */
  hit(key: string, windowSeconds: number): Promise<HitCount>;
  /** The hits counted on `key` in its current window without counting one; `null` when none. */
  hits(key: string): Promise<HitCount | null>;
  /** Clears a hit counter, so the next hit starts a new window. */
  resetHits(key: string): Promise<void>;
}

/**
 * One registered passkey (a WebAuthn credential record) as a
 * {@linkcode PasskeyStore} keeps it. Every field but `counter`,
 * `lastUsedAt` and `backedUp` is written once, at registration.
 *
 * @example
 * ```ts
 * import type { StoredPasskey } from "@service-stack/auth";
 *
 * const passkey: StoredPasskey = {
 *   id: "AQIDBAUGBwgJCgsMDQ4PEA",
 *   sub: "user-1",
 *   publicKey: "MCowBQYDK2VwAyEA", // base64url SubjectPublicKeyInfo
 *   algorithm: -8,
 *   counter: 0,
 *   transports: ["internal"],
 *   aaguid: "00000000-0000-0000-0000-000000000000",
 *   backedUp: true,
 *   deviceType: "multiDevice",
 *   name: "Laptop",
 *   createdAt: Math.floor(Date.now() / 1000),
 * };
 * ```
 */
export interface StoredPasskey {
  /** The credential id, base64url (1 to 1,364 characters: at most 1,023 bytes). */
  id: string;
  /** The user the passkey signs in; 1 to 256 characters. */
  sub: string;
  /** The public key: DER SubjectPublicKeyInfo, base64url. */
  publicKey: string;
  /** Its COSE algorithm: -8 (EdDSA), -7 (ES256) or -257 (RS256). */
  algorithm: number;
  /** The signature counter last seen (0 for authenticators that keep none). */
  counter: number;
  /** Transport hints reported at registration (`"internal"`, `"hybrid"`, `"usb"`, ...). */
  transports: string[];
  /** The authenticator model's AAGUID (all zeros when hidden). */
  aaguid: string;
  /** Whether the credential is backed up (synced): the BS flag at registration, refreshed at each sign-in. */
  backedUp: boolean;
  /** `"multiDevice"` for a syncable passkey, else `"singleDevice"`. */
  deviceType: "singleDevice" | "multiDevice";
  /** The name the user gave it; at most 100 characters, may be empty. */
  name: string;
  /** When it was registered, in seconds since the epoch. */
  createdAt: number;
  /** When it last signed in, in seconds since the epoch. */
  lastUsedAt?: number;
}

/**
 * Where passkeys live: `memoryStore()`, `redisStore(client)` and
 * `denoKvStore(kv)` implement it (passkeys never expire there), or the app
 * implements it over its own table (see the README, "Passkeys"). Ids are
 * unique across all users.
 *
 * @example Over a Map
 * ```ts
 * import type { PasskeyStore, StoredPasskey } from "@service-stack/auth";
 *
 * const rows = new Map<string, StoredPasskey>();
 * const store: PasskeyStore = {
 *   savePasskey(passkey) {
 *     if (rows.has(passkey.id)) return Promise.resolve(false);
 *     rows.set(passkey.id, structuredClone(passkey));
 *     return Promise.resolve(true);
 *   },
 *   getPasskey: (id) => Promise.resolve(rows.get(id) ?? null),
 *   listPasskeys: (sub) => Promise.resolve([...rows.values()].filter((row) => row.sub === sub)),
 *   deletePasskey: (id) => Promise.resolve(rows.delete(id)),
 *   // Compare-and-set: saved only over the counter the sign-in read.
 *   updatePasskey(id, { previousCounter, ...update }) {
 *     const row = rows.get(id);
 *     if (row === undefined || row.counter !== previousCounter) return Promise.resolve(false);
 *     Object.assign(row, update);
 *     return Promise.resolve(true);
 *   },
 * };
 * ```
 */
export interface PasskeyStore {
  /**
   * Saves a new passkey; resolves `false` and writes nothing when its id is
   * already registered (by anyone): a unique key on `id`.
   */
  savePasskey(passkey: StoredPasskey): Promise<boolean>;
  /** The passkey with this credential id, or `null`. */
  getPasskey(id: string): Promise<StoredPasskey | null>;
  /** The user's passkeys, in no particular order. */
  listPasskeys(sub: string): Promise<StoredPasskey[]>;
  /** Deletes one passkey; resolves `true` when it existed. */
  deletePasskey(id: string): Promise<boolean>;
  /**
   * Records a sign-in: the new signature counter, when it happened and
   * whether the credential is backed up now (the BS flag), saved only over
   * the counter the sign-in read (compare-and-set, atomic across
   * instances): resolves `true` when the stored counter was
   * `previousCounter` and the update is now saved, `false` when it was not
   * (another sign-in got there first, or the passkey is gone) and nothing
   * was written.
   */
  updatePasskey(
    id: string,
    update: { counter: number; lastUsedAt: number; backedUp: boolean; previousCounter: number },
  ): Promise<boolean>;
}

/**
 * A provider account linked to a user, as an {@linkcode AccountStore} keeps
 * it. `tokens` is one string the library seals itself (access, refresh and
 * ID token, token type): neither the store nor the app's database can read
 * it. Times are integer seconds since the epoch.
 *
 * @example
 * ```ts
 * import type { StoredAccount } from "@service-stack/auth";
 *
 * const now = Math.floor(Date.now() / 1000);
 * const account: StoredAccount = {
 *   provider: "github",
 *   providerAccountId: "583231",
 *   sub: "user-1",
 *   scope: "read:user user:email",
 *   expiresAt: now + 3600,
 *   tokens: "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0...", // sealed by the library
 *   createdAt: now,
 *   updatedAt: now,
 * };
 * ```
 */
export interface StoredAccount {
  /** The provider id (`"github"`, a custom id, or `"sso:<connection>"`); 1 to 256 characters. */
  provider: string;
  /** The provider's subject for this account (its user id); 1 to 256 characters. */
  providerAccountId: string;
  /** The user the account signs in; 1 to 256 characters. */
  sub: string;
  /** The scopes the provider granted, space-separated (may be empty). */
  scope: string;
  /** When the access token expires (seconds since the epoch); absent when the provider gave no lifetime. */
  expiresAt?: number;
  /** The provider's tokens, sealed by the library; an empty string when they were dropped. */
  tokens: string;
  /** When the account was first linked. */
  createdAt: number;
  /** When the account or its tokens last changed. */
  updatedAt: number;
}

/**
 * Where linked accounts live: `memoryStore()`, `redisStore(client)`,
 * `denoKvStore(kv)` and `sqlStore(...)` implement it, or the app implements
 * it over its own table. Accounts never expire (an expired access token is
 * not an expired account).
 *
 * @example Over a Map
 * ```ts
 * import type { AccountStore, StoredAccount } from "@service-stack/auth";
 *
 * const rows = new Map<string, StoredAccount>();
 * const keyOf = (provider: string, id: string) => JSON.stringify([provider, id]);
 * const store: AccountStore = {
 *   saveAccount(account) {
 *     rows.set(keyOf(account.provider, account.providerAccountId), { ...account });
 *     return Promise.resolve();
 *   },
 *   getAccount: (provider, id) => Promise.resolve(rows.get(keyOf(provider, id)) ?? null),
 *   listAccounts: (sub) => Promise.resolve([...rows.values()].filter((row) => row.sub === sub)),
 *   deleteAccount: (provider, id) => Promise.resolve(rows.delete(keyOf(provider, id))),
 * };
 * ```
 */
export interface AccountStore {
  /** Saves an account, replacing the one with the same `(provider, providerAccountId)` (an upsert). */
  saveAccount(account: StoredAccount): Promise<void>;
  /** The account with this provider and provider account id, or `null`. */
  getAccount(provider: string, providerAccountId: string): Promise<StoredAccount | null>;
  /** The user's accounts, in no particular order. */
  listAccounts(sub: string): Promise<StoredAccount[]>;
  /** Deletes one account; resolves `true` when it existed. */
  deleteAccount(provider: string, providerAccountId: string): Promise<boolean>;
}

/**
 * One API key as an {@linkcode ApiKeyStore} keeps it: never the key itself,
 * only a keyed hash of it (HMAC under a key derived from the app's secret,
 * named by `kid`). Times are integer seconds since the epoch.
 *
 * @example
 * ```ts
 * import type { StoredApiKey } from "@service-stack/auth";
 *
 * const apiKey: StoredApiKey = {
 *   id: "k7Qm2xV9pLr4",
 *   sub: "user-1",
 *   name: "CI deploys",
 *   scopes: ["deploy"],
 *   hash: "q1yW3q1o2Ddq0mV0b9jJmH6v2n2bX4h0dFQy8s7yB8s", // HMAC-SHA-256, base64url
 *   kid: "f3b2c1",
 *   createdAt: Math.floor(Date.now() / 1000),
 * };
 * ```
 */
export interface StoredApiKey {
  /** The key's public id (also inside the key); 1 to 256 characters. */
  id: string;
  /** The user the key acts for; 1 to 256 characters. */
  sub: string;
  /** The name the user gave it; at most 100 characters. */
  name: string;
  /** The scopes the key carries. */
  scopes: string[];
  /** The keyed hash of the whole key, base64url. */
  hash: string;
  /** Which derived hash key made `hash` (so keys made before a secret rotation still verify). */
  kid: string;
  /** When it was made. */
  createdAt: number;
  /** When it stops working; absent for a key that does not expire. A store never returns an expired key. */
  expiresAt?: number;
  /** When it was last used (written at most once a minute). */
  lastUsedAt?: number;
}

/**
 * Where API keys live: `memoryStore()`, `redisStore(client)`,
 * `denoKvStore(kv)` and `sqlStore(...)` implement it. An expired key is
 * never returned and is removed in time.
 *
 * @example Over a Map
 * ```ts
 * import type { ApiKeyStore, StoredApiKey } from "@service-stack/auth";
 *
 * const rows = new Map<string, StoredApiKey>();
 * const live = (row: StoredApiKey | undefined) =>
 *   row && (row.expiresAt === undefined || row.expiresAt > Date.now() / 1000) ? row : null;
 * const store: ApiKeyStore = {
 *   saveApiKey(apiKey) {
 *     rows.set(apiKey.id, { ...apiKey });
 *     return Promise.resolve();
 *   },
 *   getApiKey: (id) => Promise.resolve(live(rows.get(id))),
 *   listApiKeys: (sub) =>
 *     Promise.resolve([...rows.values()].filter((row) => row.sub === sub && live(row))),
 *   deleteApiKey: (id) => Promise.resolve(rows.delete(id)),
 *   touchApiKey(id, lastUsedAt) {
 *     const row = rows.get(id);
 *     if (row) row.lastUsedAt = lastUsedAt;
 *     return Promise.resolve();
 *   },
 * };
 * ```
 */
export interface ApiKeyStore {
  /** Saves a new API key (ids are random and unique). */
  saveApiKey(apiKey: StoredApiKey): Promise<void>;
  /** The live key with this id, or `null` (unknown, deleted or expired). */
  getApiKey(id: string): Promise<StoredApiKey | null>;
  /** The user's live keys, in no particular order. */
  listApiKeys(sub: string): Promise<StoredApiKey[]>;
  /** Deletes one key; resolves `true` when it existed. */
  deleteApiKey(id: string): Promise<boolean>;
  /** Records when a key was last used. */
  touchApiKey(id: string, lastUsedAt: number): Promise<void>;
}
