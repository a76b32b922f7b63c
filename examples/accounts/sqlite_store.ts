// Linked accounts in an app's own SQL table: an AccountStore over SQLite (`node:sqlite`, in
// Deno 2.2+ and Node 22.5+). The same four statements work on Postgres or MySQL with their
// clients. `tokens` is sealed by the library: the table never holds a provider token in clear.
import type { AccountStore, StoredAccount } from "@service-stack/auth";

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
export function sqliteAccountStore(db: SqlDatabase): AccountStore {
  db.exec(`CREATE TABLE IF NOT EXISTS linked_accounts (
    provider TEXT NOT NULL,              -- "github", "google", a custom id
    provider_account_id TEXT NOT NULL,   -- the provider's id of the account
    sub TEXT NOT NULL,                   -- your user
    scope TEXT NOT NULL,
    expires_at INTEGER,                  -- when the access token expires (seconds), or NULL
    tokens TEXT NOT NULL,                -- sealed by the library; '' once dropped
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (provider, provider_account_id)
  )`);
  db.exec("CREATE INDEX IF NOT EXISTS linked_accounts_by_sub ON linked_accounts (sub)");

  const upsert = db.prepare(
    `INSERT INTO linked_accounts (provider, provider_account_id, sub, scope, expires_at, tokens,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (provider, provider_account_id) DO UPDATE SET
       sub = excluded.sub, scope = excluded.scope, expires_at = excluded.expires_at,
       tokens = excluded.tokens, created_at = excluded.created_at,
       updated_at = excluded.updated_at`,
  );
  const byKey = db.prepare(
    "SELECT * FROM linked_accounts WHERE provider = ? AND provider_account_id = ?",
  );
  // Saved last, listed last: the library takes the last of equal `updated_at`s as the newest.
  const bySub = db.prepare(
    "SELECT * FROM linked_accounts WHERE sub = ? ORDER BY updated_at, rowid",
  );
  const remove = db.prepare(
    "DELETE FROM linked_accounts WHERE provider = ? AND provider_account_id = ?",
  );

  // deno-lint-ignore no-explicit-any
  const fromRow = (row: any): StoredAccount => {
    const account: StoredAccount = {
      provider: row.provider,
      providerAccountId: row.provider_account_id,
      sub: row.sub,
      scope: row.scope,
      tokens: row.tokens,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
    if (row.expires_at !== null) account.expiresAt = Number(row.expires_at);
    return account;
  };

  return {
    saveAccount(account) {
      upsert.run(
        account.provider,
        account.providerAccountId,
        account.sub,
        account.scope,
        account.expiresAt ?? null,
        account.tokens,
        account.createdAt,
        account.updatedAt,
      );
      return Promise.resolve();
    },
    getAccount(provider, providerAccountId) {
      const row = byKey.get(provider, providerAccountId);
      return Promise.resolve(row === undefined ? null : fromRow(row));
    },
    listAccounts(sub) {
      return Promise.resolve(bySub.all(sub).map(fromRow));
    },
    deleteAccount(provider, providerAccountId) {
      return Promise.resolve(Number(remove.run(provider, providerAccountId).changes) > 0);
    },
  };
}
