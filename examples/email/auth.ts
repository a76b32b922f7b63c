// auth.ts: sign-in by email (a link and a 6-digit code), verification, change of address and
// password reset. Deno 2, TypeScript, an ES module beside smtp_send.mjs (below). The users live in
// `db`, a small in-memory table standing in for your database. Environment: AUTH_SECRET,
// AUTH_URL (the public origin; links are built from it), SMTP_HOST and SMTP_PORT.
import { createAuth, hashPassword, type User, verifyPassword } from "@service-stack/auth";
import { smtpSend } from "./smtp_send.mjs";

interface UserRow {
  sub: string;
  email: string;
  name?: string;
  emailVerified?: boolean;
  passwordHash?: string;
}

/** The users table. */
export const db = {
  rows: new Map<string, UserRow>(), // by sub
  userByEmail(email: string): UserRow | null {
    for (const row of this.rows.values()) if (row.email === email) return row;
    return null;
  },
  createUser(fields: { email: string; name?: string; password?: string }): Promise<UserRow> {
    return this.insert(fields.email, fields.name, fields.password);
  },
  async insert(email: string, name?: string, password?: string): Promise<UserRow> {
    const row: UserRow = { sub: crypto.randomUUID(), email, name };
    if (password !== undefined) row.passwordHash = await hashPassword(password);
    this.rows.set(row.sub, row);
    return row;
  },
  markVerified(sub: string, email: string): void {
    const row = this.rows.get(sub);
    if (row?.email === email) row.emailVerified = true;
  },
  setEmail(sub: string, email: string): void {
    const row = this.rows.get(sub);
    if (row) Object.assign(row, { email, emailVerified: true });
  },
  async setPassword(sub: string, password: string): Promise<void> {
    const row = this.rows.get(sub);
    if (row) row.passwordHash = await hashPassword(password);
  },
};

/** What enters the session: never the password hash. */
function toUser(row: UserRow): User {
  const user: User = { sub: row.sub, email: row.email };
  if (row.name !== undefined) user.name = row.name;
  if (row.emailVerified) user.emailVerified = true;
  return user;
}

export const auth = createAuth({
  oauth: [],
  email: {
    send: smtpSend({
      host: Deno.env.get("SMTP_HOST") ?? "localhost",
      port: Number(Deno.env.get("SMTP_PORT") ?? 587),
      from: "auth@example.com",
    }),
    findUser: (email) => {
      const row = db.userByEmail(email);
      return row === null ? null : toUser(row);
    },
    createUser: async (email) => toUser(await db.createUser({ email })), // optional: sign-up by email
    onVerified: ({ sub, email }) => db.markVerified(sub, email), // optional
    onChanged: ({ sub, to }) => db.setEmail(sub, to), // optional
  },
  credentials: {
    authorize: async ({ username, password }) => {
      const row = db.userByEmail(username);
      // Hashes even for an unknown address, so the time taken does not tell which exist.
      const valid = await verifyPassword(password, row?.passwordHash);
      return valid && row !== null ? toUser(row) : null;
    },
    resetPassword: ({ sub, password }) => db.setPassword(sub, password), // hashes it
  },
  signUp: {
    onCreateUser: async (payload) =>
      toUser(
        await db.createUser({
          email: String(payload.email),
          name: payload.name === undefined ? undefined : String(payload.name),
          password: String(payload.password),
        }),
      ),
    verifyEmail: true,
  },
});

// The server: the auth routes under /auth, everything else is your app.
if (import.meta.main) {
  Deno.serve({ port: Number(Deno.env.get("PORT") ?? 8000) }, async (request) => {
    if (new URL(request.url).pathname.startsWith("/auth/")) return auth.handlers.ALL(request);
    const session = await auth.api.getSession(request);
    return new Response(session ? `Hello ${session.user.email}` : "Not signed in");
  });
}
