// Passkeys in an app's own SQL table: a PasskeyStore over SQLite (`node:sqlite`, in Deno 2.2+
// and Node 22.5+). The same five statements work on Postgres or MySQL with their clients.
import type { PasskeyStore, StoredPasskey } from "@service-stack/auth";

/** What the store needs of a database: `DatabaseSync` of `node:sqlite` (or better-sqlite3). */
export interface SqlDatabase {
  exec(sql: string): void;
  prepare(sql: string): {
    run(...params: unknown[]): { changes: number | bigint };
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
  };
}

/** Creates the table (once) and returns the store over it. */
export function sqlitePasskeyStore(db: SqlDatabase): PasskeyStore {
  db.exec(`CREATE TABLE IF NOT EXISTS passkeys (
    id TEXT PRIMARY KEY,              -- credential id, base64url; unique across all users
    sub TEXT NOT NULL,                -- the user it signs in
    public_key TEXT NOT NULL,         -- SPKI, base64url
    algorithm INTEGER NOT NULL,       -- -8, -7 or -257
    counter INTEGER NOT NULL,
    transports TEXT NOT NULL,         -- JSON array
    aaguid TEXT NOT NULL,
    backed_up INTEGER NOT NULL,       -- 0 or 1
    device_type TEXT NOT NULL,        -- 'singleDevice' or 'multiDevice'
    name TEXT NOT NULL,
    created_at REAL NOT NULL,         -- seconds since the epoch
    last_used_at REAL
  )`);
  db.exec("CREATE INDEX IF NOT EXISTS passkeys_by_sub ON passkeys (sub)");

  const insert = db.prepare(
    `INSERT INTO passkeys (id, sub, public_key, algorithm, counter, transports, aaguid,
       backed_up, device_type, name, created_at, last_used_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
  );
  const byId = db.prepare("SELECT * FROM passkeys WHERE id = ?");
  const bySub = db.prepare("SELECT * FROM passkeys WHERE sub = ?");
  const remove = db.prepare("DELETE FROM passkeys WHERE id = ?");
  // Compare-and-set: a sign-in saves only over the counter it read, so of two sign-ins with the
  // same counter at once exactly one changes the row (one statement: atomic in any SQL database).
  const update = db.prepare(
    `UPDATE passkeys SET counter = ?, last_used_at = ?, backed_up = ?
     WHERE id = ? AND counter = ?`,
  );

  // deno-lint-ignore no-explicit-any
  const fromRow = (row: any): StoredPasskey => ({
    id: row.id,
    sub: row.sub,
    publicKey: row.public_key,
    algorithm: row.algorithm,
    counter: row.counter,
    transports: JSON.parse(row.transports),
    aaguid: row.aaguid,
    backedUp: row.backed_up === 1,
    deviceType: row.device_type,
    name: row.name,
    createdAt: row.created_at,
    ...(row.last_used_at === null ? {} : { lastUsedAt: row.last_used_at }),
  });

  return {
    savePasskey(p) {
      const { changes } = insert.run(
        p.id,
        p.sub,
        p.publicKey,
        p.algorithm,
        p.counter,
        JSON.stringify(p.transports),
        p.aaguid,
        p.backedUp ? 1 : 0,
        p.deviceType,
        p.name,
        p.createdAt,
        p.lastUsedAt ?? null,
      );
      // 0 rows: the id is registered already (by anyone), and nothing was written.
      return Promise.resolve(Number(changes) === 1);
    },
    getPasskey(id) {
      const row = byId.get(id);
      return Promise.resolve(row === undefined ? null : fromRow(row));
    },
    listPasskeys(sub) {
      return Promise.resolve(bySub.all(sub).map(fromRow));
    },
    deletePasskey(id) {
      return Promise.resolve(Number(remove.run(id).changes) === 1);
    },
    updatePasskey(id, { counter, lastUsedAt, backedUp, previousCounter }) {
      const { changes } = update.run(counter, lastUsedAt, backedUp ? 1 : 0, id, previousCounter);
      // 0 rows: another sign-in saved first (or the passkey is gone), and nothing was written.
      return Promise.resolve(Number(changes) === 1);
    },
  };
}
