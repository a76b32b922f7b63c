/**
 * The npm build's type declarations in a TypeScript project for Node (no
 * `dom` lib, `@types/node`) and one for Bun (`@types/bun`), with
 * `skipLibCheck: false`, strict, compiled with `tsc --noEmit` under real Node. Also the package.json fields that make the
 * package ESM only, and `require()` on a Node that can require ES modules.
 *
 * @module
 */

import assert from "node:assert/strict";
import { buildNpmPackage, PACKAGE_NAME, stageApp } from "../support/npm_package.ts";
import { REPO_ROOT } from "../support/server.ts";
import { missingTool, toolPath } from "../support/tools.ts";

const ignore = missingTool("node");

/**
 * Errors the declarations still give, each as `file: TSxxxx name`, because
 * `src/jose/` names DOM-only types (`CryptoKey`, `CryptoKeyPair`, `KeyUsage`,
 * `SubtleCrypto`, `Algorithm`, `TextEncoder` as a type). The type-only source
 * edits that remove them (new `WebCryptoKey`/`WebCryptoKeyPair` types) are
 * for the lead to apply; once they land this list and
 * {@linkcode KNOWN_JOSE_ERRORS_BUN} must be emptied, and the tests fail until
 * they are.
 */
const KNOWN_JOSE_ERRORS: string[] = [];

/** The subset of {@linkcode KNOWN_JOSE_ERRORS} a Bun project sees; emptied with it. */
const KNOWN_JOSE_ERRORS_BUN: string[] = [];

/** An app using every entry point, and `toNodeHandler` where `node:http` expects a listener. */
const APP = `
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createAuth, type Session } from "${PACKAGE_NAME}";
import { createAuthClient } from "${PACKAGE_NAME}/client";
import { createJose } from "${PACKAGE_NAME}/jose";
import { createMockProvider } from "${PACKAGE_NAME}/testing";
import { type NodeHandler, toNodeHandler } from "${PACKAGE_NAME}/node";

const mock = createMockProvider();
const auth = createAuth({ oauth: [mock.provider], fetch: mock.fetch, secret: "x".repeat(43) });
const handler: NodeHandler = toNodeHandler(auth.handlers.ALL, { onError: console.error });
createServer(handler);
createServer((req: IncomingMessage, res: ServerResponse) => void handler(req, res));
const client = createAuthClient({ headers: { "x-app": "shop" }, cache: "no-store" });
const session: Promise<Session | null> = client.getSession();
const jose = createJose("y".repeat(43));
void [session, jose];

// A hook returns a literal its identity schema allows; a literal it does not is an error.
interface RoleUser { sub: string; role: "admin" | "member" }
const roles = {
  "~standard": {
    version: 1 as const,
    vendor: "app",
    validate: (value: unknown) => ({ value: value as RoleUser }),
    types: undefined as unknown as { input: unknown; output: RoleUser },
  },
};
const typed = createAuth({
  oauth: [],
  secret: "x".repeat(43),
  identity: { schema: roles },
  credentials: { authorize: async () => ({ sub: "1", role: "admin" }) },
  signUp: { onCreateUser: () => ({ sub: "2", role: "member" }) },
  callbacks: { signIn: async ({ user }) => ({ ...user, role: "admin" }) },
});
const role: Promise<"admin" | "member" | undefined> = typed.api
  .getSession(new Request("http://x"))
  .then((found) => found?.user.role);
createAuth({
  oauth: [],
  secret: "x".repeat(43),
  identity: { schema: roles },
  // @ts-expect-error "owner" is not a role of the schema.
  credentials: { authorize: async () => ({ sub: "1", role: "owner" }) },
});
void role;
`;

interface TscResult {
  success: boolean;
  /** Errors in the package's declarations and the app, as `file: TSxxxx name`, sorted. */
  errors: string[];
  /** Errors inside other packages' declarations (`node_modules/`), as tsc printed them. */
  libraryErrors: string[];
  output: string;
}

const PACKAGE_FILE = /^.*?(?:npm_dist_[^/]+|node_modules\/@service-stack\/auth)\//;

/** Compiles {@linkcode APP} with `compilerOptions` in a staged app; errors as `file: TSxxxx name`. */
async function compile(compilerOptions: Record<string, unknown>): Promise<TscResult> {
  await using app = await stageApp("tests/node/fixtures/types_app", {
    packages: ["typescript", "@types/node", "@types/bun"],
  });
  await Deno.writeTextFile(`${app.dir}/app.ts`, APP);
  await Deno.writeTextFile(
    `${app.dir}/tsconfig.json`,
    JSON.stringify({ compilerOptions: { ...compilerOptions, noEmit: true }, files: ["app.ts"] }),
  );
  const { success, stdout, stderr } = await new Deno.Command(toolPath("node")!, {
    args: ["node_modules/typescript/bin/tsc", "-p", "."],
    cwd: app.dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  const errors: string[] = [];
  const libraryErrors: string[] = [];
  for (
    const [line, file, code, message] of output.matchAll(
      /^(\S+?)\(\d+,\d+\): error (TS\d+): (.*)$/gm,
    )
  ) {
    if (!PACKAGE_FILE.test(file) && file.includes("node_modules/")) {
      libraryErrors.push(line);
      continue;
    }
    const name = /'([^']+)'/.exec(message)?.[1] ?? message;
    errors.push(`${file.replace(PACKAGE_FILE, "")}: ${code} ${name}`);
  }
  return { success, errors: errors.sort(), libraryErrors, output };
}

Deno.test({
  name: "the declarations compile for Node with nodenext, no dom lib and skipLibCheck false",
  ignore,
  async fn() {
    const result = await compile({
      target: "es2022",
      lib: ["es2022"],
      types: ["node"],
      module: "nodenext",
      moduleResolution: "nodenext",
      strict: true,
      skipLibCheck: false,
    });
    assert.deepEqual(result.errors, KNOWN_JOSE_ERRORS, result.output);
    assert.deepEqual(result.libraryErrors, []);
    assert.equal(result.success, KNOWN_JOSE_ERRORS.length === 0, result.output);
  },
});

Deno.test({
  name: "the declarations are found with moduleResolution node10 (top-level types, root files)",
  ignore,
  async fn() {
    const result = await compile({
      target: "es2022",
      lib: ["es2022"],
      types: ["node"],
      module: "esnext",
      moduleResolution: "node10",
      strict: true,
      skipLibCheck: false,
    });
    assert.deepEqual(result.errors, KNOWN_JOSE_ERRORS, result.output);
    assert.deepEqual(result.libraryErrors, []);
    assert.doesNotMatch(result.output, /TS2307|TS7016/, "a module or its types not found");
  },
});

Deno.test({
  name: "the declarations give no errors of their own in a Bun project (@types/bun, no dom lib)",
  ignore,
  async fn() {
    const result = await compile({
      target: "esnext",
      lib: ["esnext"],
      types: ["bun"],
      module: "preserve",
      moduleResolution: "bundler",
      strict: true,
      skipLibCheck: false,
    });
    // Bun's types declare the Web Crypto globals; these two names they lack. Errors inside
    // bun-types itself come from the @types/node that deno.lock pins for Node 20 (a Bun project
    // would get the newest) and are not this package's.
    assert.deepEqual(result.errors, KNOWN_JOSE_ERRORS_BUN, result.output);
  },
});

Deno.test("package.json says ESM only, with types first in every export", async () => {
  const dist = await buildNpmPackage();
  const manifest = JSON.parse(await Deno.readTextFile(`${dist}/package.json`));
  const config = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`));
  assert.equal(manifest.type, "module");
  assert.equal(manifest.engines.node, ">=20.19");
  assert.equal(manifest.types, "./mod.d.ts");
  assert.equal(manifest.main, "./mod.js");
  assert.deepEqual(Object.keys(manifest.exports), Object.keys(config.exports));
  for (const [subpath, target] of Object.entries<string>(config.exports)) {
    const base = target.slice(0, -3);
    const conditions = manifest.exports[subpath];
    assert.deepEqual(Object.keys(conditions), ["types", "import", "default"], subpath);
    assert.deepEqual(conditions, {
      types: `${base}.d.ts`,
      import: `${base}.js`,
      default: `${base}.js`,
    });
  }
});

Deno.test({
  name: "Node 20.19+ loads every export with require() as well as import",
  ignore,
  async fn() {
    await using app = await stageApp("tests/node/fixtures/types_app");
    const config = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`));
    const specifiers = Object.keys(config.exports).map((subpath) =>
      subpath === "." ? PACKAGE_NAME : `${PACKAGE_NAME}/${subpath.slice(2)}`
    );
    const script = `const specifiers = ${JSON.stringify(specifiers)};
const required = specifiers.map((s) => Object.keys(require(s)).sort().join());
Promise.all(specifiers.map((s) => import(s))).then((modules) => {
  const imported = modules.map((m) => Object.keys(m).filter((k) => k !== "default").sort().join());
  console.log(JSON.stringify({ required, imported }));
});`;
    const { success, stdout, stderr } = await new Deno.Command(toolPath("node")!, {
      args: ["--no-warnings", "--eval", script],
      cwd: app.dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(success, new TextDecoder().decode(stderr));
    const { required, imported } = JSON.parse(new TextDecoder().decode(stdout));
    assert.deepEqual(required, imported);
    assert.ok(required.every((names: string) => names.length > 0));
  },
});
