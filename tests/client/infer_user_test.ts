// deno-lint-ignore-file require-await -- async hooks without await are the case under test.
import assert from "node:assert/strict";
import { createAuthClient } from "../../client.ts";
import type { AuthClient, AuthResult, InferUser, Session, User } from "../../client.ts";
import { type createAuth, createAuth as realCreateAuth } from "../../mod.ts";

// Exact type equality, checked by `deno check` (and by `deno test` without --no-check).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;

interface AppUser extends User {
  role: "admin" | "member";
}

// The shape of a `createAuth` instance, as far as InferUser looks at it.
interface FakeAuth {
  handlers: Record<string, (req: Request) => Response>;
  api: {
    getSession(req: Request): Promise<Session<AppUser> | null>;
    signOut(): Promise<Response>;
  };
}

interface FakeAuthWithPropertyFunction {
  api: { getSession: (req: Request) => Promise<Session<AppUser> | null> };
}

Deno.test("InferUser reads the user type from api.getSession", () => {
  const exact: Equal<InferUser<FakeAuth>, AppUser> = true;
  const viaProperty: Equal<InferUser<FakeAuthWithPropertyFunction>, AppUser> = true;
  // @ts-expect-error The inferred type is AppUser, not the base User.
  const notBase: Equal<InferUser<FakeAuth>, User> = true;
  assert.deepEqual([exact, viaProperty, notBase], [true, true, true]);
});

Deno.test("InferUser reads the user type of a real createAuth instance", () => {
  const custom: Equal<InferUser<ReturnType<typeof createAuth<AppUser>>>, AppUser> = true;
  const base: Equal<InferUser<ReturnType<typeof createAuth>>, User> = true;
  assert.deepEqual([custom, base], [true, true]);
});

Deno.test("InferUser gives never for something that is not an auth instance", () => {
  const plain: Equal<InferUser<{ api: Record<string, never> }>, never> = true;
  const wrongReturn: Equal<InferUser<{ api: { getSession(req: Request): string } }>, never> = true;
  assert.deepEqual([plain, wrongReturn], [true, true]);
});

Deno.test("createAuthClient with InferUser types sessions with the app's user", async () => {
  const client = createAuthClient<InferUser<FakeAuth>>({
    fetch: () =>
      Promise.resolve(
        Response.json({ user: { sub: "1", role: "admin" }, expires: "2030-01-01T00:00:00.000Z" }),
      ),
  });
  const typed: Equal<typeof client, AuthClient<AppUser>> = true;
  const session = await client.getSession();
  const role: "admin" | "member" | undefined = session?.user.role;
  assert.equal(typed, true);
  assert.equal(role, "admin");
});

Deno.test("the default client is typed with the base User and a generic sign-up payload", () => {
  const client = createAuthClient();
  const typed: Equal<typeof client, AuthClient<User, Record<string, unknown>>> = true;
  const result: Equal<ReturnType<typeof client.signOut>, Promise<AuthResult<{ ok: true }>>> = true;
  assert.deepEqual([typed, result], [true, true]);
});

Deno.test("signUp accepts only the declared payload plus redirect fields", () => {
  const client = createAuthClient<User, { email: string }>({
    fetch: () => Promise.reject(new Error("unused")),
  });
  const call = () => client.signUp({ email: "a@example.com", redirectTo: "/" });
  // @ts-expect-error `email` must be a string.
  const bad = () => client.signUp({ email: 1 });
  assert.equal(typeof call, "function");
  assert.equal(typeof bad, "function");
});

Deno.test("InferUser follows identity.schema even when authorize returns fewer fields", () => {
  interface SchemaUser extends User {
    role: "admin" | "member";
    plan: string;
  }
  const schema = {
    "~standard": {
      version: 1 as const,
      vendor: "test",
      validate: (value: unknown) => ({
        value: { role: "member", plan: "free", ...value as User } as SchemaUser,
      }),
      types: undefined as unknown as { input: unknown; output: SchemaUser },
    },
  };
  const auth = realCreateAuth({
    oauth: [],
    secret: "test-secret-0123456789abcdef-0123456789abcdef",
    env: {},
    identity: { schema },
    credentials: { authorize: () => ({ sub: "1" }) },
    signUp: { onCreateUser: () => ({ sub: "2", name: "New" }) },
    callbacks: { signIn: ({ user }) => ({ ...user, role: "admin" as const }) },
  });
  const inferred: Equal<InferUser<typeof auth>, SchemaUser> = true;
  // @ts-expect-error The user type is no longer the fewer fields authorize returns.
  const fromAuthorize: Equal<InferUser<typeof auth>, { sub: string }> = true;
  assert.deepEqual([inferred, fromAuthorize], [true, true]);
});

// A hook may return a literal the schema allows (tsc 5 widened it to string through NoInfer).
interface RoleUser extends User {
  role: "admin" | "member";
}

const roleSchema = {
  "~standard": {
    version: 1 as const,
    vendor: "test",
    validate: (value: unknown) => ({ value: value as RoleUser }),
    types: undefined as unknown as { input: unknown; output: RoleUser },
  },
};

const ROLE_CONFIG = {
  oauth: [],
  secret: "test-secret-0123456789abcdef-0123456789abcdef",
  env: {},
  logger: false as const,
  identity: { schema: roleSchema },
};

Deno.test("authorize and onCreateUser may return a schema-valid literal, sync or async", () => {
  const asyncHooks = realCreateAuth({
    ...ROLE_CONFIG,
    credentials: { authorize: async () => ({ sub: "1", role: "admin" }) },
    signUp: { onCreateUser: async () => ({ sub: "2", role: "member" }) },
  });
  const syncHooks = realCreateAuth({
    ...ROLE_CONFIG,
    credentials: { authorize: () => ({ sub: "1", role: "admin" }) },
    signUp: { onCreateUser: (payload) => ({ sub: String(payload.id), role: "member" }) },
  });
  const inferred: Equal<InferUser<typeof asyncHooks>, RoleUser> = true;
  const inferredSync: Equal<InferUser<typeof syncHooks>, RoleUser> = true;
  assert.deepEqual([inferred, inferredSync], [true, true]);
});

Deno.test("callbacks.signIn may return a schema-valid literal, with or without parameters", () => {
  const withUser = realCreateAuth({
    ...ROLE_CONFIG,
    callbacks: { signIn: async ({ user }) => ({ ...user, role: "admin" }) },
  });
  const constant = realCreateAuth({
    ...ROLE_CONFIG,
    callbacks: { signIn: () => ({ sub: "1", role: "member" }) },
  });
  const inferred: Equal<InferUser<typeof withUser>, RoleUser> = true;
  const inferredConstant: Equal<InferUser<typeof constant>, RoleUser> = true;
  assert.deepEqual([inferred, inferredConstant], [true, true]);
});

Deno.test("a literal the schema does not allow is a type error in every hook", () => {
  const make = () => [
    realCreateAuth({
      ...ROLE_CONFIG,
      // @ts-expect-error "owner" is not a role of the schema.
      credentials: { authorize: async () => ({ sub: "1", role: "owner" }) },
    }),
    realCreateAuth({
      ...ROLE_CONFIG,
      // @ts-expect-error "owner" is not a role of the schema.
      signUp: { onCreateUser: () => ({ sub: "1", role: "owner" }) },
    }),
    realCreateAuth({
      ...ROLE_CONFIG,
      // @ts-expect-error "owner" is not a role of the schema.
      callbacks: { signIn: async ({ user }) => ({ ...user, role: "owner" }) },
    }),
  ];
  assert.equal(typeof make, "function");
});

Deno.test("without a schema, authorize may still return extra fields of any type", () => {
  const auth = realCreateAuth({
    oauth: [],
    secret: "test-secret-0123456789abcdef-0123456789abcdef",
    env: {},
    logger: false,
    credentials: {
      authorize: async () => ({ sub: "1", createdAt: new Date(), tags: ["a"], hash: "x" }),
    },
  });
  const inferred: Equal<InferUser<typeof auth>, User> = true;
  assert.equal(inferred, true);
});
