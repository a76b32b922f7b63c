// A Redis Cluster failover, survived: three masters with a replica each (six local
// `redis-server --cluster-enabled yes`, `cluster-node-timeout` 1500 ms, joined with
// `redis-cli --cluster create ... --cluster-replicas 1`). Each test kills (SIGKILL) a master
// holding sessions and, through the real HTTP handler (`createAuth` with
// `session: { store: redisStore(client) }`), checks that while it is down nothing answers 500 or
// grants a session it should not, and that once its replica is promoted sessions, revocation,
// sign-in, the credentials throttle and single-use marks work again, with the same client and
// auth instances (no restart): ioredis `Cluster`, node-redis 6 `createCluster` with its defaults
// and with the options docs/redis-cluster.md recommends. The probed instance has the default
// storeTimeout; a second one on the same client, with a longer one, sets up and checks after.
// Each test prints how long its client took to answer again. One cluster serves the file; the
// last test stops it (redis_server.ts kills it if the process ends first). Ignored, with a
// `skipped:` line, without redis-server.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { createCluster } from "npm:redis@6";
import type { Auth } from "../../mod.ts";
import { type RedisClient, redisStore } from "../../redis.ts";
import { Browser, makeAuth, ORIGIN, setCookieNames } from "../server/_helpers.ts";
import { type RedisServer, startRedisCluster } from "../support/redis_server.ts";
import { missingTool } from "../support/tools.ts";
import { connectCluster as connectIoRedis } from "../../examples/redis-cluster/ioredis.ts";
import { connectCluster as connectNodeRedis } from "../../examples/redis-cluster/node_redis.ts";

const noRedis = missingTool("redis-server");
const PREFIX = "service-stack:";
const PASSWORD = "correct horse";
// Short, for a failover of a few seconds; long enough that a loaded machine does not fail a
// master over by itself.
const NODE_TIMEOUT_MS = 1_500;
// Generous for a loaded machine: a failover here takes 3 to 8 s.
const RECOVERY_DEADLINE_MS = 20_000;
// How long a store call of the set-up and of the checks after the failover may take: a healthy
// call on a loaded machine can take a second. The probed instance keeps the default (1000 ms).
const STORE_TIMEOUT_MS = 3_000;
const PROBE_EVERY_MS = 150;

// Started once, outside any test (no test owns its processes); stopped by the last test, or by
// redis_server.ts when the process ends early.
const cluster = noRedis
  ? undefined
  : await startRedisCluster({ masters: 3, replicas: 1, nodeTimeoutMs: NODE_TIMEOUT_MS });
const killed = new Set<RedisServer>();

// ---- Where keys live ----

/** CRC16/XMODEM, the checksum Redis Cluster hashes keys with. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = (crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1) & 0xffff;
    }
  }
  return crc;
}

/** The slot of a key without a `{...}` hash tag (no key of the store has one). */
function keySlot(key: string): number {
  assert.ok(!key.includes("{"), `a key with a hash tag: ${key}`);
  return crc16(new TextEncoder().encode(key)) % 16_384;
}

/** The store's throttle key for a username, as src/core/sign_in.ts builds it. */
async function throttleKey(username: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(username.normalize("NFKC").trim().toLowerCase().normalize("NFKC")),
  );
  const base64 = btoa(String.fromCharCode(...new Uint8Array(digest)));
  const base64url = base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${PREFIX}hits:credentials:${base64url}`;
}

/** A master, the replica that will take over its slots, and those slots. */
interface Shard {
  master: RedisServer;
  replica: RedisServer;
  ranges: [number, number][];
  holds(key: string): boolean;
}

function live(): RedisServer[] {
  return cluster!.nodes.filter((node) => !killed.has(node));
}

/**
 * A master that has a connected replica, from `CLUSTER NODES` as a live node sees it; asked
 * again for up to 10 s, since gossip may not have told that node of every replica yet.
 */
async function shardWithReplica(): Promise<Shard> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await findShardWithReplica();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function findShardWithReplica(): Promise<Shard> {
  const text = await cluster!.cli(live()[0].port, ["CLUSTER", "NODES"]);
  const rows = text.trim().split("\n").map((line) => line.trim().split(" "));
  const byPort = (address: string) =>
    cluster!.nodes.find((node) => node.port === Number(address.split("@")[0].split(":")[1]));
  for (const [id, address, flags, , , , , , ...slots] of rows) {
    if (!flags.includes("master") || flags.includes("fail") || slots.length === 0) continue;
    const replicaRow = rows.find(([, , replicaFlags, masterId, , , , link]) =>
      masterId === id && replicaFlags.includes("slave") && !replicaFlags.includes("fail") &&
      link === "connected"
    );
    const master = byPort(address);
    const replica = replicaRow === undefined ? undefined : byPort(replicaRow[1]);
    if (master === undefined || replica === undefined || killed.has(master)) continue;
    const ranges = slots.filter((slot) => /^\d/.test(slot)).map((slot) => {
      const [from, to = from] = slot.split("-").map(Number);
      return [from, to] as [number, number];
    });
    return {
      master,
      replica,
      ranges,
      holds: (key) => {
        const slot = keySlot(key);
        return ranges.some(([from, to]) => slot >= from && slot <= to);
      },
    };
  }
  throw new Error(`No master with a connected replica; expected one.\n${text}`);
}

async function replicationOffset(node: RedisServer, field: string): Promise<number> {
  const info = await cluster!.cli(node.port, ["INFO", "replication"]);
  const match = info.match(new RegExp(`^${field}:(\\d+)`, "m"));
  return match === null ? -1 : Number(match[1]);
}

/** Waits until the replica has applied every write its master had (so that none is lost). */
async function replicaCaughtUp(shard: Shard): Promise<void> {
  const target = await replicationOffset(shard.master, "master_repl_offset");
  const deadline = Date.now() + 10_000;
  while (await replicationOffset(shard.replica, "slave_repl_offset") < target) {
    assert.ok(Date.now() < deadline, "the replica did not catch up with its master");
    await delay(20);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---- Clients ----

interface Flavor {
  name: string;
  connect(): Promise<{ client: RedisClient; close(): Promise<void> }>;
}

// ioredis with the options docs/redis-cluster.md shows (its example file, as it is).
const ioredis: Flavor = {
  name: "ioredis Cluster",
  async connect() {
    const client = await connectIoRedis(
      live().map((node) => ({ host: "127.0.0.1", port: node.port })),
    );
    return {
      client,
      close: async () => {
        client.disconnect();
        await delay(0);
      },
    };
  },
};

// node-redis 6 as it comes, and with the options docs/redis-cluster.md recommends (its example).
const nodeRedis: Flavor = {
  name: "node-redis 6 createCluster (default options)",
  async connect() {
    const client = createCluster({ rootNodes: live().map((node) => ({ url: node.url })) });
    // Without a listener a lost connection would end the test process.
    client.on("error", () => {});
    await client.connect();
    return { client, close: () => destroy(client) };
  },
};

const nodeRedisTuned: Flavor = {
  name: "node-redis 6 createCluster (recommended options)",
  async connect() {
    const client = await connectNodeRedis(live().map((node) => node.url));
    return { client, close: () => destroy(client) };
  },
};

async function destroy(client: { destroy(): void }): Promise<void> {
  client.destroy();
  await delay(0);
}

// ---- Through the HTTP handler ----

/** Two app instances on one client, and what they signed in before the failover. */
interface Party {
  flavor: Flavor;
  /** The instance probed during the outage, with the default storeTimeout (1000 ms). */
  auth: Auth;
  /** The instance that sets up and checks afterwards, with a longer storeTimeout. */
  steady: Auth;
  store: ReturnType<typeof redisStore>;
  close(): Promise<void>;
  /** A live session on the master that dies. */
  alive: Signed;
  /** The cookies of a session on the master that dies, signed out before it died. */
  revoked: string;
  /** Guessed at while the master is down; its throttle counter is on that master. */
  guessed: string;
  /** Locked after the failover; its throttle counter is on that master's slots. */
  locked: string;
  /** A single-use mark on that master's slots. */
  mark: string;
  /** Sign-ins that answered 200 while the master was down. */
  signedMeanwhile: Signed[];
  /** When the session on the dead master was read again, in ms after the kill. */
  recoveredMs?: number;
  /** How many probes answered 503 while the master was down. */
  unavailable: number;
}

interface Signed {
  username: string;
  browser: Browser;
}

function cookieOf(signed: Signed): string {
  return signed.browser.cookieHeader();
}

function isSessionCookie(name: string): boolean {
  return name.includes("session_token");
}

async function signIn(auth: Auth, username: string, password = PASSWORD) {
  const browser = new Browser(auth.handlers.ALL);
  const response = await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username, password },
    headers: { "X-CSRF-Token": await browser.csrf() },
  });
  return { browser, response };
}

/** `GET /auth/session`: its status and the `sub` it names (`null` for a JSON null). */
async function readSession(auth: Auth, cookie: string) {
  const response = await auth.handlers.ALL(
    new Request(`${ORIGIN}/auth/session`, { headers: { Cookie: cookie } }),
  );
  const text = await response.text();
  const body = response.headers.get("Content-Type")?.startsWith("application/json")
    ? JSON.parse(text)
    : text;
  return { status: response.status, sub: body?.user?.sub ?? null, body };
}

async function apiSession(auth: Auth, cookie: string) {
  const request = new Request(`${ORIGIN}/auth/session`, { headers: { Cookie: cookie } });
  return (await auth.api.getSession(request))?.user.sub ?? null;
}

async function assertStatus(response: Response, status: number, what: string): Promise<void> {
  if (response.status !== status) {
    assert.fail(`${what}: ${response.status} ${await response.text()}; expected ${status}`);
  }
}

/** Asserts a 503 `temporarily_unavailable`, the only failure a dead store may cause. */
function assertUnavailable(status: number, body: unknown, what: string): void {
  assert.equal(status, 503, `${what}: ${status} ${JSON.stringify(body)}`);
  assert.equal((body as { error?: string })?.error, "temporarily_unavailable", what);
}

async function sessionId(store: Party["store"], username: string): Promise<string> {
  const sessions = await store.listSessions(username);
  assert.equal(sessions.length, 1, `sessions of ${username}`);
  return sessions[0].id;
}

/** Signs users in until one's session lands on `shard`'s slots. */
async function signInOn(party: Pick<Party, "steady" | "store">, shard: Shard, prefix: string) {
  for (let i = 0; i < 60; i++) {
    const username = `${prefix}-${i}`;
    const { browser, response } = await signIn(party.steady, username);
    await assertStatus(response, 200, `sign-in of ${username}`);
    if (shard.holds(`${PREFIX}session:${await sessionId(party.store, username)}`)) {
      return { username, browser };
    }
  }
  throw new Error("No session landed on the master to kill; expected one in 60 sign-ins.");
}

async function usernameOn(shard: Shard, prefix: string): Promise<string> {
  for (let i = 0;; i++) {
    if (shard.holds(await throttleKey(`${prefix}-${i}`))) return `${prefix}-${i}`;
  }
}

function keyOn(shard: Shard, prefix: string): string {
  for (let i = 0;; i++) {
    if (shard.holds(`${PREFIX}once:${prefix}-${i}`)) return `${prefix}-${i}`;
  }
}

/** Connects a client, an auth instance on it, and signs in what the test needs on `shard`. */
async function prepare(flavor: Flavor, shard: Shard, tag: string): Promise<Party> {
  const { client, close } = await flavor.connect();
  try {
    const store = redisStore(client);
    const credentials = {
      authorize: ({ username, password }: { username: string; password: string }) =>
        password === PASSWORD ? { sub: username } : null,
    };
    // Two app instances on the one client: the probed one with the default storeTimeout, and
    // one that sets up and checks with a longer one (a loaded machine can be slow).
    const auth = makeAuth({ credentials, session: { store } });
    const steady = makeAuth({ credentials, session: { store, storeTimeout: STORE_TIMEOUT_MS } });
    const party = { steady, store };
    const alive = await signInOn(party, shard, `alive-${tag}`);
    const toRevoke = await signInOn(party, shard, `revoked-${tag}`);
    // Replayed after signing out (the browser itself drops the cookie).
    const revoked = toRevoke.browser.cookieHeader();
    const signOut = await toRevoke.browser.fetch("POST", "/auth/signOut", {
      headers: { "X-CSRF-Token": await toRevoke.browser.csrf() },
    });
    await assertStatus(signOut, 200, "sign-out before the kill");
    const replayed = await readSession(steady, revoked);
    assert.deepEqual([replayed.status, replayed.body], [200, null]);
    assert.equal((await readSession(steady, cookieOf(alive))).sub, alive.username);
    return {
      flavor,
      auth,
      steady,
      store,
      close,
      alive,
      revoked,
      guessed: await usernameOn(shard, `guessed-${tag}`),
      locked: await usernameOn(shard, `locked-${tag}`),
      mark: keyOn(shard, `mark-${tag}`),
      signedMeanwhile: [],
      unavailable: 0,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** One round of requests while the master may be down; throws on a 500 or a stray session. */
async function probe(party: Party, round: number, killedAt: number): Promise<void> {
  const { auth, alive, revoked } = party;
  const [aliveRead, revokedRead, apiRead, attempt, guess] = await Promise.all([
    readSession(auth, cookieOf(alive)),
    readSession(auth, revoked),
    apiSession(auth, cookieOf(alive)),
    signIn(auth, `meanwhile-${round}-${crypto.randomUUID()}`),
    signIn(auth, party.guessed, "wrong"),
  ]);
  const name = party.flavor.name;

  // The session on the dead master: unavailable, or (once promoted) the session, never signed out.
  if (aliveRead.status === 200 && aliveRead.sub === alive.username) {
    party.recoveredMs ??= performance.now() - killedAt;
  } else {
    assertUnavailable(aliveRead.status, aliveRead.body, `${name}: a live session's read`);
    party.unavailable++;
  }
  // A revoked session stays revoked: unavailable, or no session.
  if (revokedRead.status === 200) assert.equal(revokedRead.body, null, `${name}: revoked session`);
  else assertUnavailable(revokedRead.status, revokedRead.body, `${name}: a revoked session's read`);
  // api.getSession never throws: null while the store is away.
  assert.ok(apiRead === null || apiRead === alive.username, `${name}: api.getSession`);

  // A sign-in either works (its session is checked after the failover) or sets no session cookie.
  const cookies = setCookieNames(attempt.response).filter(isSessionCookie);
  if (attempt.response.status === 200) {
    assert.ok(cookies.length > 0, `${name}: a sign-in answered 200 without a session cookie`);
    party.signedMeanwhile.push({
      username: (await attempt.response.json()).user.sub,
      browser: attempt.browser,
    });
  } else {
    const body = await attempt.response.json();
    assertUnavailable(attempt.response.status, body, `${name}: a sign-in`);
    assert.deepEqual(cookies, [], `${name}: a 503 sign-in set a session cookie`);
  }

  // A guess whose throttle counter is on the dead master is never let through uncounted.
  const guessBody = await guess.response.json();
  assert.ok(
    [401, 429, 503].includes(guess.response.status),
    `${name}: a wrong password answered ${guess.response.status} ${JSON.stringify(guessBody)}`,
  );
  assert.deepEqual(setCookieNames(guess.response).filter(isSessionCookie), []);
}

/** Probes every party until each reads its session on the dead master again. */
async function outage(parties: Party[], killedAt: number): Promise<void> {
  const errors: unknown[] = [];
  const inFlight: Promise<void>[] = [];
  for (let round = 0; parties.some((party) => party.recoveredMs === undefined); round++) {
    if (performance.now() - killedAt > RECOVERY_DEADLINE_MS) {
      const late = parties.filter((party) => party.recoveredMs === undefined);
      errors.push(
        new Error(
          `${late.map((party) => party.flavor.name).join(", ")} did not read the session again ` +
            `within ${RECOVERY_DEADLINE_MS} ms of the kill; expected the replica's promotion to be seen.`,
        ),
      );
      break;
    }
    for (const party of parties.filter((party) => party.recoveredMs === undefined)) {
      // Rounds overlap (a call to the dead master waits up to storeTimeout): each started on time.
      inFlight.push(probe(party, round, killedAt).catch((error) => void errors.push(error)));
    }
    if (errors.length > 0) break;
    await delay(PROBE_EVERY_MS);
  }
  await Promise.all(inFlight);
  if (errors.length > 0) throw errors[0];
}

/** After the promotion: everything works again through the same client and auth instances. */
async function afterFailover(party: Party, shard: Shard, tag: string): Promise<void> {
  const { steady: auth, store, alive, revoked } = party;
  // Sessions: the one on the dead master survived, the revoked one stayed revoked, and every
  // sign-in that answered 200 meanwhile holds a session.
  assert.equal((await readSession(auth, cookieOf(alive))).sub, alive.username);
  assert.equal(await apiSession(auth, cookieOf(alive)), alive.username);
  const revokedRead = await readSession(auth, revoked);
  assert.deepEqual([revokedRead.status, revokedRead.body], [200, null]);
  for (const signed of party.signedMeanwhile) {
    assert.equal((await readSession(auth, cookieOf(signed))).sub, signed.username);
  }

  // Sign-in: a new session on the promoted replica's slots reads back.
  const fresh = await signInOn(party, shard, `after-${tag}`);
  assert.equal((await readSession(auth, cookieOf(fresh))).sub, fresh.username);

  // Revocation: signing out (the old cookie reads no session), and revoking a user's sessions.
  const oldCookie = cookieOf(alive);
  const signOut = await alive.browser.fetch("POST", "/auth/signOut", {
    headers: { "X-CSRF-Token": await alive.browser.csrf() },
  });
  await assertStatus(signOut, 200, "sign-out after the failover");
  const gone = await readSession(auth, oldCookie);
  assert.deepEqual([gone.status, gone.body], [200, null]);
  assert.equal(await apiSession(auth, oldCookie), null);
  assert.equal(await auth.api.revokeSessions(fresh.username), 1);
  assert.equal((await readSession(auth, cookieOf(fresh))).sub, null);

  // The credentials throttle: five wrong passwords, then even the right one is refused.
  for (let i = 0; i < 5; i++) {
    await assertStatus(
      (await signIn(auth, party.locked, "wrong")).response,
      401,
      "a wrong password",
    );
  }
  await assertStatus((await signIn(auth, party.locked, "wrong")).response, 429, "a sixth guess");
  await assertStatus((await signIn(auth, party.locked)).response, 429, "a locked username");

  // Single-use marks: the first use counts, the second is refused.
  assert.equal(await store.consume(party.mark, 600), true);
  assert.equal(await store.consume(party.mark, 600), false);
}

/** Kills a master holding the parties' sessions and checks that each survives it. */
async function survive(flavors: Flavor[]): Promise<void> {
  const shard = await shardWithReplica();
  const parties: Party[] = [];
  try {
    // Usernames and marks of their own: the tests share one cluster.
    const tag = () => crypto.randomUUID().slice(0, 8);
    const prepared = await Promise.allSettled(
      flavors.map((flavor) => prepare(flavor, shard, tag())),
    );
    for (const result of prepared) if (result.status === "fulfilled") parties.push(result.value);
    for (const result of prepared) if (result.status === "rejected") throw result.reason;
    await replicaCaughtUp(shard);
    killed.add(shard.master);
    const killedAt = performance.now();
    await shard.master.kill();
    await outage(parties, killedAt);
    for (const party of parties) {
      console.log(
        `measured: ${party.flavor.name} read the session again ${
          (party.recoveredMs! / 1000).toFixed(1)
        } s after its master was killed (${party.unavailable} reads answered 503 meanwhile)`,
      );
      assert.ok(party.unavailable > 0, "the outage was never seen; expected 503s");
    }
    const checked = await Promise.allSettled(
      parties.map((party) => afterFailover(party, shard, crypto.randomUUID().slice(0, 8))),
    );
    for (const result of checked) if (result.status === "rejected") throw result.reason;
  } finally {
    for (const party of parties) await party.close();
  }
}

Deno.test({
  name: "redis cluster failover (ioredis Cluster): 503 while the master is down, then all works",
  ignore: noRedis,
  fn: () => survive([ioredis]),
});

Deno.test({
  name:
    "redis cluster failover (node-redis 6 createCluster, default and recommended options): 503 while the master is down, then all works",
  ignore: noRedis,
  fn: () => survive([nodeRedis, nodeRedisTuned]),
});

Deno.test("docs/redis-cluster.md shows each file of examples/redis-cluster/ as it is", async () => {
  const docs = await Deno.readTextFile(new URL("../../docs/redis-cluster.md", import.meta.url));
  const blocks = [...docs.matchAll(/^```ts(?: ignore)?\n([\s\S]*?)^```$/gm)].map(([, code]) =>
    code
  );
  const folder = new URL("../../examples/redis-cluster/", import.meta.url);
  const files: string[] = [];
  for await (const entry of Deno.readDir(folder)) files.push(entry.name);
  assert.deepEqual(files.sort(), ["auth.ts", "ioredis.ts", "node_redis.ts"]);
  // The blocks type-check as those files do (deno check examples/), and the test runs two of them.
  for (const file of files) {
    const text = await Deno.readTextFile(new URL(file, folder));
    assert.ok(blocks.includes(text), `docs/redis-cluster.md lacks examples/redis-cluster/${file}`);
  }
  assert.equal(blocks.length, files.length);
});

Deno.test({
  name: "redis cluster failover: every node stops",
  ignore: noRedis,
  fn: async () => {
    await cluster!.stop();
    for (const node of cluster!.nodes) {
      await assert.rejects(Deno.connect({ hostname: "127.0.0.1", port: node.port }));
    }
  },
});
