// auth.ts: passkeys beside a password. Deno 2, TypeScript, an ES module. The users live in `db`,
// a small in-memory table standing in for your database; passkeys in memoryStore() (swap in
// redisStore, denoKvStore or the SQL table of sqlite_store.ts). Environment: AUTH_SECRET and
// AUTH_URL, the public origin, whose host name is the WebAuthn RP ID (http://localhost:8000 in
// development: WebAuthn needs a domain name, not an IP address).
import {
  createAuth,
  hashPassword,
  memoryStore,
  type User,
  verifyPassword,
} from "@service-stack/auth";

interface UserRow {
  sub: string;
  username: string;
  name: string;
  passwordHash: string;
}

/** The users table. */
export const db = {
  rows: new Map<string, UserRow>(), // by sub
  async insert(username: string, name: string, password: string): Promise<UserRow> {
    const row = {
      sub: crypto.randomUUID(),
      username,
      name,
      passwordHash: await hashPassword(password),
    };
    this.rows.set(row.sub, row);
    return row;
  },
  userById(sub: string): User | null {
    const row = this.rows.get(sub);
    return row === undefined ? null : { sub: row.sub, name: row.name };
  },
  async checkPassword({ username, password }: { username: string; password: string }) {
    const row = [...this.rows.values()].find((candidate) => candidate.username === username);
    // Hashes even for an unknown username, so the time taken does not tell which exist.
    const valid = await verifyPassword(password, row?.passwordHash);
    return valid && row !== undefined ? this.userById(row.sub) : null;
  },
};

export const auth = createAuth({
  oauth: [],
  credentials: { authorize: (credentials) => db.checkPassword(credentials) },
  passkeys: {
    store: memoryStore(), // one process; a shared store for several instances
    findUser: (sub) => db.userById(sub), // a User ({ sub, ... }) or null
    // rpID: "example.com", // to share passkeys with other subdomains of example.com
    // rpName: "Example", // shown by authenticators; default logger.appName, else the RP ID
    // origins: ["https://login.example.com"], // other origins under rpID that run ceremonies
    // userVerification: "required", // default: a PIN or biometrics on every use
  },
});

// The server: the auth routes under /auth, everything else is your app.
if (import.meta.main) {
  Deno.serve({ port: Number(Deno.env.get("PORT") ?? 8000) }, async (request) => {
    if (new URL(request.url).pathname.startsWith("/auth/")) return auth.handlers.ALL(request);
    const session = await auth.api.getSession(request);
    return new Response(session ? `Hello ${session.user.name}` : "Not signed in");
  });
}
