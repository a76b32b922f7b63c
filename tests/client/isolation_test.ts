/**
 * The client must not pull server code into a page: its import graph stays in
 * `client.ts`, `src/client/` and the pure types of `src/types.ts`, and its
 * minified bundle stays small.
 */

import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// About 6.6 KB before the email methods, two-factor and passkeys (WebAuthn glue); 10.7 KB with them;
// 11.3 KB with apiKeys (create, list, delete).
const BUNDLE_CEILING = 11.5 * 1024;
// Text that would only be in a bundle that pulled in server code.
const SERVER_MARKERS = [
  "crypto.subtle",
  "subtle.",
  "Set-Cookie",
  "HKDF",
  "sessionToken",
  "codeVerifier",
  "code_verifier",
  "AuthError",
  "Deno.env",
  "process.env",
  "handlers",
];

/** Every module in `entry`'s graph as Deno resolves it (type-only imports included). */
async function importGraph(root: string, entry: string): Promise<string[]> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: root,
    env: { DENO_NO_UPDATE_CHECK: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  const info = JSON.parse(new TextDecoder().decode(stdout)) as {
    modules: { specifier: string }[];
  };
  return info.modules.map(({ specifier }) =>
    specifier.startsWith("file:") ? relative(root, fileURLToPath(specifier)) : specifier
  ).sort();
}

function outsideClient(files: string[]): string[] {
  return files.filter((f) =>
    f !== "client.ts" && f !== join("src", "types.ts") && f !== join("src", "is_record.ts") &&
    !f.startsWith(join("src", "client") + "/")
  );
}

async function bundle(minify: boolean): Promise<string> {
  const dir = await Deno.makeTempDir();
  try {
    const out = join(dir, "client.js");
    const args = ["bundle", "--platform", "browser", "-o", out, join(ROOT, "client.ts")];
    if (minify) args.splice(1, 0, "--minify");
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args,
      cwd: ROOT,
      env: { DENO_NO_UPDATE_CHECK: "1" },
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    return await Deno.readTextFile(out);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("client.ts imports only src/client/, src/types.ts and src/is_record.ts", async () => {
  const files = await importGraph(ROOT, "client.ts");
  assert.ok(files.includes(join("src", "client", "create_auth_client.ts")));
  assert.deepEqual(outsideClient(files), []);
});

Deno.test("src/types.ts and src/is_record.ts, reached by the client, import nothing", async () => {
  for (const leaf of ["types.ts", "is_record.ts"]) {
    assert.deepEqual(await importGraph(ROOT, join("src", leaf)), [join("src", leaf)]);
  }
});

Deno.test("the import graph check catches a server import and a package import", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "src", "client"), { recursive: true });
    await Deno.writeTextFile(join(dir, "client.ts"), `export * from "./src/client/a.ts";\n`);
    await Deno.writeTextFile(
      join(dir, "src", "client", "a.ts"),
      `import { x } from "../config.ts";\nimport type { Y } from "node:fs";\nexport const a = x;\nexport type { Y };\n`,
    );
    await Deno.writeTextFile(join(dir, "src", "config.ts"), `export const x = 1;\n`);
    assert.deepEqual(outsideClient(await importGraph(dir, "client.ts")), [
      "node:fs",
      join("src", "config.ts"),
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the minified client bundle is small and holds no server code", async () => {
  const code = await bundle(true);
  console.log(`client bundle: ${code.length} bytes minified (ceiling ${BUNDLE_CEILING})`);
  assert.ok(code.length <= BUNDLE_CEILING, `${code.length} bytes`);
  assert.match(code, /createAuthClient/);
  for (const marker of SERVER_MARKERS) assert.equal(code.includes(marker), false, marker);
});

Deno.test("the client bundle is made only of src/client/ modules and the shared error codes", async () => {
  const code = await bundle(false);
  const modules = [...code.matchAll(/^\/\/ (\S+\.ts)$/gm)].map((m) => m[1]).sort();
  assert.ok(modules.length > 0, "the bundle names its modules");
  const shared = ["src/types.ts", "src/is_record.ts"];
  assert.deepEqual(modules.filter((m) => !m.startsWith("src/client/") && !shared.includes(m)), []);
});
