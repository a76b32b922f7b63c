/**
 * `checkStore`: the checks every store of this library passes, runnable on
 * an app's own store. Each check writes only keys it made (a random run
 * id in every key, id and `sub`), removes what it can afterwards, and gives
 * one-time marks and counters short lives, so that running the kit against
 * a production backend leaves nothing behind for long.
 *
 * The checks run one after another (concurrency is inside a check, where it
 * is the point), each bounded in time, so a store that hangs fails that
 * check instead of the whole run. Expiry checks wait for real time (about
 * two seconds, once for all of them): a store may keep whole seconds.
 *
 * @module
 */

import type {
  AccountStore,
  ApiKeyStore,
  PasskeyStore,
  SessionStore,
  StoredAccount,
  StoredApiKey,
  StoredPasskey,
  StoredSession,
} from "../store/types.ts";

/** The kinds of entries a store can hold, each checked on its own. */
export type StoreKind = "sessions" | "marks" | "counters" | "passkeys" | "accounts" | "apiKeys";

/** Options for {@linkcode checkStore}. */
export interface CheckStoreOptions {
  /**
   * The kinds to check; by default every kind the store has the methods of.
   * A kind listed here whose methods the store lacks fails its first check.
   */
  kinds?: readonly StoreKind[];
  /** Most milliseconds one check may take before it fails. Defaults to 15,000. */
  timeout?: number;
}

/** One check that did not pass, and why. */
export interface FailedCheck {
  /** The check's short name, e.g. `"consume is atomic"`. */
  check: string;
  /** What went wrong. */
  message: string;
}

/** What {@linkcode checkStore} found. */
export interface CheckStoreResult {
  /** The names of the checks that passed, in the order they ran. */
  passed: string[];
  /** The checks that failed, in the order they ran. */
  failed: FailedCheck[];
}

/** Any object that may implement some of the store contracts. */
export type CheckableStore =
  | Partial<SessionStore & PasskeyStore & AccountStore & ApiKeyStore>
  | SessionStore
  | PasskeyStore
  | AccountStore
  | ApiKeyStore;

const METHODS: Record<StoreKind, readonly string[]> = {
  sessions: ["saveSession", "getSession", "deleteSession", "listSessions", "deleteSessions"],
  marks: ["consume"],
  counters: ["hit", "hits", "resetHits"],
  passkeys: ["savePasskey", "getPasskey", "listPasskeys", "deletePasskey", "updatePasskey"],
  accounts: ["saveAccount", "getAccount", "listAccounts", "deleteAccount"],
  apiKeys: ["saveApiKey", "getApiKey", "listApiKeys", "deleteApiKey", "touchApiKey"],
};
const KINDS = Object.keys(METHODS) as StoreKind[];

// Long enough for a store that keeps whole seconds to see a one-second entry expire.
const EXPIRY_WAIT_MS = 2_200;
const CONCURRENT_CONSUMES = 50;
const CONCURRENT_HITS = 100;

class CheckFailure extends Error {}

function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message);
}

function same(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(sorted(actual));
  const e = JSON.stringify(sorted(expected));
  expect(a === e, `${what}: got ${a}, expected ${e}`);
}

/** A copy with object keys in order and `undefined` fields left out, for comparing records. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const field = (value as Record<string, unknown>)[key];
      if (field !== undefined) out[key] = sorted(field);
    }
    return out;
  }
  return value;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The kinds a store has every method of. */
function kindsOf(store: CheckableStore): StoreKind[] {
  const methods = store as Record<string, unknown>;
  return KINDS.filter((kind) => METHODS[kind].every((m) => typeof methods[m] === "function"));
}

interface Check {
  name: string;
  run(): Promise<void>;
}

/** A record of everything a run made, for the clean-up. */
interface Made {
  sessions: Set<string>;
  counters: Set<string>;
  passkeys: Set<string>;
  accounts: Set<string>;
  apiKeys: Set<string>;
}

/**
 * Runs the store contract's checks on `store`: atomic `consume` and `hit`
 * under concurrency, expiry, listing and revoking sessions, and the
 * passkey, linked-account and API-key records with the passkey counter's
 * compare-and-set. It never touches data outside the keys it made and
 * never rejects: every problem is a failed check.
 *
 * @example
 * ```ts
 * import { memoryStore } from "@service-stack/auth";
 * import { checkStore } from "@service-stack/auth/testing";
 *
 * const { passed, failed } = await checkStore(memoryStore(), { kinds: ["marks", "counters"] });
 * console.log(`${passed.length} passed`);
 * for (const { check, message } of failed) console.error(`${check}: ${message}`);
 * ```
 */
export async function checkStore(
  store: CheckableStore,
  options: CheckStoreOptions = {},
): Promise<CheckStoreResult> {
  if (store === null || typeof store !== "object") {
    throw new TypeError("checkStore needs a store object; expected e.g. memoryStore().");
  }
  const kinds = options.kinds ?? kindsOf(store);
  for (const kind of kinds) {
    if (!KINDS.includes(kind)) {
      throw new TypeError(
        `checkStore: unknown kind; expected some of ${KINDS.map((k) => `"${k}"`).join(", ")}.`,
      );
    }
  }
  const timeout = options.timeout ?? 15_000;
  const run = `check-${randomId()}`;
  const made: Made = {
    sessions: new Set(),
    counters: new Set(),
    passkeys: new Set(),
    accounts: new Set(),
    apiKeys: new Set(),
  };
  const s = store as SessionStore & PasskeyStore & AccountStore & ApiKeyStore;
  const checks: Check[] = [];
  const expiry: ExpiryCheck[] = [];
  for (const kind of kinds) {
    const missing = METHODS[kind].filter((m) =>
      typeof (store as Record<string, unknown>)[m] !== "function"
    );
    if (missing.length > 0) {
      checks.push({
        name: `${kind}: the store has the methods`,
        run: () => Promise.reject(new CheckFailure(`missing ${missing.join(", ")}`)),
      });
      continue;
    }
    const build = BUILDERS[kind];
    const built = build(s, run, made);
    checks.push(...built.checks);
    expiry.push(...built.expiry);
  }

  const result: CheckStoreResult = { passed: [], failed: [] };
  for (const check of checks) await runCheck(check.name, check.run, timeout, result);
  // Expiry checks write first, wait once together, then read.
  const written: ExpiryCheck[] = [];
  for (const check of expiry) {
    const failedBefore = result.failed.length;
    await runCheck(check.name, check.write, timeout, result, false);
    if (result.failed.length === failedBefore) written.push(check);
  }
  if (written.length > 0) await sleep(EXPIRY_WAIT_MS);
  for (const check of written) await runCheck(check.name, check.read, timeout, result);
  await cleanUp(s, made);
  return result;
}

/** A check of expiry: `write`, then (after the run's one wait) `read`. */
interface ExpiryCheck {
  name: string;
  write(): Promise<void>;
  read(): Promise<void>;
}

function expiryCheck(
  name: string,
  write: () => Promise<void>,
  read: () => Promise<void>,
): ExpiryCheck {
  return { name, write, read };
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckFailure(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

async function runCheck(
  name: string,
  run: () => Promise<void>,
  timeout: number,
  result: CheckStoreResult,
  recordPass = true,
): Promise<void> {
  let error: unknown;
  try {
    await withTimeout(run(), timeout);
  } catch (caught) {
    error = caught ?? new Error("failed");
  }
  if (error !== undefined || recordPass) record(name, error, result);
}

function record(name: string, error: unknown, result: CheckStoreResult): void {
  if (error === undefined) {
    result.passed.push(name);
    return;
  }
  const message = error instanceof CheckFailure
    ? error.message
    : `rejected: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  result.failed.push({ check: name, message });
}

async function cleanUp(
  store: SessionStore & PasskeyStore & AccountStore & ApiKeyStore,
  made: Made,
): Promise<void> {
  const quietly = (promise: () => Promise<unknown>) =>
    withTimeout(promise(), 5_000).catch(() => {});
  await Promise.all([
    ...[...made.sessions].map((id) => quietly(() => store.deleteSession(id))),
    ...[...made.counters].map((key) => quietly(() => store.resetHits(key))),
    ...[...made.passkeys].map((id) => quietly(() => store.deletePasskey(id))),
    ...[...made.accounts].map((pair) => {
      const [provider, id] = JSON.parse(pair) as [string, string];
      return quietly(() => store.deleteAccount(provider, id));
    }),
    ...[...made.apiKeys].map((id) => quietly(() => store.deleteApiKey(id))),
  ]);
}

type Builder = (
  store: SessionStore & PasskeyStore & AccountStore & ApiKeyStore,
  run: string,
  made: Made,
) => { checks: Check[]; expiry: ExpiryCheck[] };

const BUILDERS: Record<StoreKind, Builder> = {
  sessions: sessionChecks,
  marks: markChecks,
  counters: counterChecks,
  passkeys: passkeyChecks,
  accounts: accountChecks,
  apiKeys: apiKeyChecks,
};

function sessionChecks(store: SessionStore, run: string, made: Made) {
  const session = (name: string, sub: string, seconds = 3600): StoredSession => {
    const id = `${run}-${name}`;
    made.sessions.add(id);
    const now = nowSeconds();
    return { id, sub, createdAt: now, expiresAt: now + seconds, userAgent: "checkStore/1.0" };
  };
  const checks: Check[] = [
    {
      name: "getSession returns the saved session",
      run: async () => {
        const saved = session("read", `${run}-u1`);
        await store.saveSession(saved);
        same(await store.getSession(saved.id), saved, "getSession");
      },
    },
    {
      name: "getSession of an unknown id is null",
      run: async () => {
        expect(await store.getSession(`${run}-unknown`) === null, "expected null");
      },
    },
    {
      name: "deleteSession revokes one session",
      run: async () => {
        const saved = session("revoke", `${run}-u2`);
        const kept = session("kept", `${run}-u2`);
        await store.saveSession(saved);
        await store.saveSession(kept);
        expect(await store.deleteSession(saved.id) === true, "deleteSession resolved not true");
        expect(await store.getSession(saved.id) === null, "the revoked session is still read");
        expect(await store.deleteSession(saved.id) === false, "a second delete resolved not false");
        same(await store.getSession(kept.id), kept, "the other session");
      },
    },
    {
      name: "listSessions lists only the user's sessions",
      run: async () => {
        const a = session("list-a", `${run}-u3`);
        const b = session("list-b", `${run}-u3`);
        const other = session("list-c", `${run}-u4`);
        await Promise.all([a, b, other].map((s) => store.saveSession(s)));
        const listed = (await store.listSessions(`${run}-u3`)).map((s) => s.id).sort();
        same(listed, [a.id, b.id].sort(), "listSessions");
      },
    },
    {
      name: "deleteSessions revokes every session of a user",
      run: async () => {
        const sub = `${run}-u5`;
        const sessions = [session("all-a", sub), session("all-b", sub), session("all-c", sub)];
        const other = session("all-d", `${run}-u6`);
        await Promise.all([...sessions, other].map((s) => store.saveSession(s)));
        const count = await store.deleteSessions(sub);
        expect(count === 3, `deleteSessions resolved ${count}, expected 3`);
        for (const s of sessions) {
          expect(await store.getSession(s.id) === null, "a revoked session is still read");
        }
        same(await store.listSessions(sub), [], "listSessions after deleteSessions");
        same(await store.getSession(other.id), other, "another user's session");
      },
    },
    {
      name: "a session whose expiresAt has passed is not saved",
      run: async () => {
        const gone = session("past", `${run}-u7`, -10);
        await store.saveSession(gone);
        expect(await store.getSession(gone.id) === null, "an expired session was returned");
      },
    },
  ];
  let short: StoredSession;
  const expiry = [
    expiryCheck("a session is gone once it expires", async () => {
      // Whole seconds: at least one second left now, none after the wait.
      short = session("short", `${run}-u8`, 2);
      await store.saveSession(short);
      expect(await store.getSession(short.id) !== null, "the session was not saved");
    }, async () => {
      expect(await store.getSession(short.id) === null, "an expired session was returned");
      same(await store.listSessions(short.sub), [], "listSessions after expiry");
    }),
  ];
  return { checks, expiry };
}

function markChecks(store: SessionStore, run: string) {
  const checks: Check[] = [
    {
      name: "consume is single-use",
      run: async () => {
        const key = `${run}-once`;
        expect(await store.consume(key, 60) === true, "the first consume resolved not true");
        expect(await store.consume(key, 60) === false, "the second consume resolved not false");
        expect(await store.consume(`${run}-other`, 60) === true, "another key was used up too");
      },
    },
    {
      name: "consume is atomic",
      run: async () => {
        const key = `${run}-race`;
        const results = await Promise.all(
          Array.from({ length: CONCURRENT_CONSUMES }, () => store.consume(key, 60)),
        );
        const wins = results.filter((r) => r === true).length;
        expect(
          wins === 1,
          `${wins} of ${CONCURRENT_CONSUMES} concurrent consumes resolved true, expected 1`,
        );
      },
    },
  ];
  const key = `${run}-expiring`;
  const expiry = [
    expiryCheck("a mark expires", async () => {
      expect(await store.consume(key, 1) === true, "the first consume resolved not true");
    }, async () => {
      expect(await store.consume(key, 60) === true, "the mark did not expire");
    }),
  ];
  return { checks, expiry };
}

function counterChecks(store: SessionStore, run: string, made: Made) {
  const counter = (name: string) => {
    const key = `${run}-${name}`;
    made.counters.add(key);
    return key;
  };
  const checks: Check[] = [
    {
      name: "hit counts in a window",
      run: async () => {
        const key = counter("count");
        for (let expected = 1; expected <= 3; expected++) {
          const { count, resetIn } = await store.hit(key, 60);
          expect(count === expected, `hit ${expected} counted ${count}`);
          expect(
            Number.isInteger(resetIn) && resetIn >= 1 && resetIn <= 60,
            `resetIn ${resetIn}, expected a whole number from 1 to 60`,
          );
        }
      },
    },
    {
      name: "hit is atomic",
      run: async () => {
        const key = counter("race");
        const counts = (await Promise.all(
          Array.from({ length: CONCURRENT_HITS }, () => store.hit(key, 60)),
        )).map((hit) => hit.count).sort((a, b) => a - b);
        const lost = counts.filter((count, index) => count !== index + 1).length;
        expect(lost === 0, `${CONCURRENT_HITS} concurrent hits counted ${counts.at(-1)}`);
        const read = await store.hits(key);
        expect(read?.count === CONCURRENT_HITS, `hits reads ${read?.count}`);
      },
    },
    {
      name: "hits reads without counting",
      run: async () => {
        const key = counter("read");
        expect(await store.hits(key) === null, "hits of an unknown key is not null");
        await store.hit(key, 60);
        expect((await store.hits(key))?.count === 1, "hits did not read 1");
        expect((await store.hits(key))?.count === 1, "hits counted a hit");
      },
    },
    {
      name: "resetHits starts the count over",
      run: async () => {
        const key = counter("reset");
        await store.hit(key, 60);
        await store.hit(key, 60);
        await store.resetHits(key);
        expect(await store.hits(key) === null, "hits after resetHits is not null");
        expect((await store.hit(key, 60)).count === 1, "the next hit did not count 1");
      },
    },
  ];
  const key = counter("window");
  const expiry = [
    expiryCheck("a hit window ends", async () => {
      await store.hit(key, 1);
      expect((await store.hit(key, 1)).count === 2, "the second hit did not count 2");
    }, async () => {
      expect((await store.hit(key, 60)).count === 1, "the window did not end");
    }),
  ];
  return { checks, expiry };
}

function passkeyChecks(store: PasskeyStore, run: string, made: Made) {
  const passkey = (name: string, sub: string, extra: Partial<StoredPasskey> = {}) => {
    const id = `${run}-${name}`;
    made.passkeys.add(id);
    const record: StoredPasskey = {
      id,
      sub,
      publicKey: "MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE",
      algorithm: -8,
      counter: 0,
      transports: ["internal", "hybrid"],
      aaguid: "00000000-0000-0000-0000-000000000000",
      backedUp: false,
      deviceType: "singleDevice",
      name: "Ünïcödé key 🔑",
      createdAt: nowSeconds(),
      ...extra,
    };
    return record;
  };
  // The compare-and-set form of updatePasskey (the previous form took two fields).
  type Update = (
    id: string,
    update: { counter: number; lastUsedAt: number; backedUp: boolean; previousCounter: number },
  ) => Promise<boolean | void>;
  const update = (id: string, previousCounter: number, counter: number, backedUp = false) =>
    (store.updatePasskey as unknown as Update)(id, {
      counter,
      lastUsedAt: nowSeconds(),
      backedUp,
      previousCounter,
    });
  const checks: Check[] = [
    {
      name: "getPasskey returns the saved passkey",
      run: async () => {
        const saved = passkey("read", `${run}-u1`);
        expect(await store.savePasskey(saved) === true, "savePasskey resolved not true");
        same(await store.getPasskey(saved.id), saved, "getPasskey");
        expect(await store.getPasskey(`${run}-unknown`) === null, "an unknown id is not null");
      },
    },
    {
      name: "a passkey id is registered once",
      run: async () => {
        const first = passkey("once", `${run}-u2`);
        expect(await store.savePasskey(first) === true, "savePasskey resolved not true");
        const thief = { ...first, sub: `${run}-u3`, name: "Thief" };
        expect(await store.savePasskey(thief) === false, "a second save of the id resolved true");
        same(await store.getPasskey(first.id), first, "the first passkey");
      },
    },
    {
      name: "listPasskeys and deletePasskey",
      run: async () => {
        const sub = `${run}-u4`;
        const a = passkey("list-a", sub);
        const b = passkey("list-b", sub);
        const other = passkey("list-c", `${run}-u5`);
        for (const p of [a, b, other]) await store.savePasskey(p);
        same((await store.listPasskeys(sub)).map((p) => p.id).sort(), [a.id, b.id].sort(), "list");
        expect(await store.deletePasskey(a.id) === true, "deletePasskey resolved not true");
        expect(await store.deletePasskey(a.id) === false, "a second delete resolved not false");
        same((await store.listPasskeys(sub)).map((p) => p.id), [b.id], "list after delete");
      },
    },
    {
      name: "updatePasskey saves only over the counter it read",
      run: async () => {
        const saved = passkey("cas", `${run}-u6`, { counter: 5 });
        await store.savePasskey(saved);
        expect(
          await update(saved.id, 4, 9) === false,
          "a stale previousCounter resolved not false",
        );
        expect((await store.getPasskey(saved.id))?.counter === 5, "a stale update was written");
        expect(await update(saved.id, 5, 6, true) === true, "a matching update resolved not true");
        const read = await store.getPasskey(saved.id);
        expect(read?.counter === 6, `counter ${read?.counter}, expected 6`);
        expect(read?.backedUp === true, "backedUp was not saved");
        expect(typeof read?.lastUsedAt === "number", "lastUsedAt was not saved");
      },
    },
    {
      name: "updatePasskey is atomic",
      run: async () => {
        const saved = passkey("cas-race", `${run}-u7`, { counter: 1 });
        await store.savePasskey(saved);
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => update(saved.id, 1, 2 + i)),
        );
        const wins = results.filter((r) => r === true).length;
        expect(wins === 1, `${wins} of 10 concurrent updates over one counter resolved true`);
      },
    },
  ];
  return { checks, expiry: [] };
}

function accountChecks(store: AccountStore, run: string, made: Made) {
  const account = (
    provider: string,
    id: string,
    sub: string,
    extra: Partial<StoredAccount> = {},
  ) => {
    made.accounts.add(JSON.stringify([provider, id]));
    const now = nowSeconds();
    const record: StoredAccount = {
      provider,
      providerAccountId: id,
      sub,
      scope: "openid email",
      expiresAt: now + 3600,
      tokens: "sealed-by-the-library",
      createdAt: now,
      updatedAt: now,
      ...extra,
    };
    return record;
  };
  const checks: Check[] = [
    {
      name: "getAccount returns the saved account",
      run: async () => {
        const saved = account(`${run}-p`, "1", `${run}-u1`);
        await store.saveAccount(saved);
        same(await store.getAccount(saved.provider, "1"), saved, "getAccount");
        expect(
          await store.getAccount(saved.provider, "2") === null,
          "an unknown account is not null",
        );
        const noExpiry = account(`${run}-p`, "3", `${run}-u1`, { expiresAt: undefined });
        await store.saveAccount(noExpiry);
        same(
          await store.getAccount(noExpiry.provider, "3"),
          noExpiry,
          "an account without expiresAt",
        );
      },
    },
    {
      name: "saveAccount replaces the account with the same provider and id",
      run: async () => {
        const first = account(`${run}-p`, "up", `${run}-u2`);
        await store.saveAccount(first);
        const second = {
          ...first,
          scope: "openid email repo",
          tokens: "",
          updatedAt: first.updatedAt + 1,
        };
        await store.saveAccount(second);
        same(await store.getAccount(first.provider, "up"), second, "getAccount after the upsert");
        const listed = await store.listAccounts(`${run}-u2`);
        expect(listed.length === 1, `listAccounts has ${listed.length} entries, expected 1`);
      },
    },
    {
      name: "provider and account id never run together",
      run: async () => {
        const a = account(`${run}-a:b`, "c", `${run}-u3`);
        const b = account(`${run}-a`, "b:c", `${run}-u3`, { scope: "other" });
        await store.saveAccount(a);
        await store.saveAccount(b);
        same(await store.getAccount(a.provider, "c"), a, "the first account");
        same(await store.getAccount(b.provider, "b:c"), b, "the second account");
      },
    },
    {
      name: "listAccounts and deleteAccount",
      run: async () => {
        const sub = `${run}-u4`;
        const a = account(`${run}-github`, "10", sub);
        const b = account(`${run}-google`, "10", sub);
        const other = account(`${run}-github`, "11", `${run}-u5`);
        for (const x of [a, b, other]) await store.saveAccount(x);
        const key = (x: StoredAccount) => `${x.provider} ${x.providerAccountId}`;
        same((await store.listAccounts(sub)).map(key).sort(), [key(a), key(b)].sort(), "list");
        expect(
          await store.deleteAccount(a.provider, "10") === true,
          "deleteAccount resolved not true",
        );
        expect(
          await store.deleteAccount(a.provider, "10") === false,
          "a second delete resolved not false",
        );
        same((await store.listAccounts(sub)).map(key), [key(b)], "list after delete");
        same(await store.getAccount(other.provider, "11"), other, "another user's account");
      },
    },
  ];
  return { checks, expiry: [] };
}

function apiKeyChecks(store: ApiKeyStore, run: string, made: Made) {
  const apiKey = (name: string, sub: string, extra: Partial<StoredApiKey> = {}) => {
    const id = `${run}-${name}`;
    made.apiKeys.add(id);
    const record: StoredApiKey = {
      id,
      sub,
      name: "CI deploys",
      scopes: ["deploy", "read"],
      hash: "q1yW3q1o2Ddq0mV0b9jJmH6v2n2bX4h0dFQy8s7yB8s",
      kid: "k1",
      createdAt: nowSeconds(),
      ...extra,
    };
    return record;
  };
  const checks: Check[] = [
    {
      name: "getApiKey returns the saved key",
      run: async () => {
        const saved = apiKey("read", `${run}-u1`, { expiresAt: nowSeconds() + 3600 });
        await store.saveApiKey(saved);
        same(await store.getApiKey(saved.id), saved, "getApiKey");
        expect(await store.getApiKey(`${run}-unknown`) === null, "an unknown id is not null");
      },
    },
    {
      name: "listApiKeys, touchApiKey and deleteApiKey",
      run: async () => {
        const sub = `${run}-u2`;
        const a = apiKey("list-a", sub);
        const b = apiKey("list-b", sub);
        const other = apiKey("list-c", `${run}-u3`);
        for (const k of [a, b, other]) await store.saveApiKey(k);
        same((await store.listApiKeys(sub)).map((k) => k.id).sort(), [a.id, b.id].sort(), "list");
        const at = nowSeconds();
        await store.touchApiKey(a.id, at);
        expect((await store.getApiKey(a.id))?.lastUsedAt === at, "touchApiKey was not saved");
        expect(await store.deleteApiKey(a.id) === true, "deleteApiKey resolved not true");
        expect(await store.getApiKey(a.id) === null, "a deleted key is still read");
        expect(await store.deleteApiKey(a.id) === false, "a second delete resolved not false");
        same((await store.listApiKeys(sub)).map((k) => k.id), [b.id], "list after delete");
      },
    },
    {
      name: "an expired API key is never returned",
      run: async () => {
        const gone = apiKey("past", `${run}-u4`, { expiresAt: nowSeconds() - 10 });
        await store.saveApiKey(gone);
        expect(await store.getApiKey(gone.id) === null, "an expired key was returned");
        same(await store.listApiKeys(gone.sub), [], "listApiKeys with an expired key");
      },
    },
  ];
  let short: StoredApiKey;
  const expiry = [
    expiryCheck("an API key is gone once it expires", async () => {
      short = apiKey("short", `${run}-u5`, { expiresAt: nowSeconds() + 2 });
      await store.saveApiKey(short);
      expect(await store.getApiKey(short.id) !== null, "the key was not saved");
    }, async () => {
      expect(await store.getApiKey(short.id) === null, "an expired key was returned");
    }),
  ];
  return { checks, expiry };
}
