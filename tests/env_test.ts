import assert from "node:assert/strict";
import {
  type EnvReader,
  lookupEnv,
  parseDebug,
  parseList,
  parseLogLevel,
  readRuntimeEnv,
} from "../src/env.ts";

function reader(vars: Record<string, string>, seen?: string[]): EnvReader {
  return (name) => {
    seen?.push(name);
    return Object.hasOwn(vars, name) ? vars[name] : undefined;
  };
}

Deno.test("lookupEnv tries SERVICE_AUTH_, SERVICE_, AUTH_, then the bare key", () => {
  const seen: string[] = [];
  assert.equal(lookupEnv("SECRET", reader({}, seen)), undefined);
  assert.deepEqual(seen, ["SERVICE_AUTH_SECRET", "SERVICE_SECRET", "AUTH_SECRET", "SECRET"]);
});

Deno.test("lookupEnv returns the first prefix that has a value", () => {
  const all = { SERVICE_AUTH_K: "1", SERVICE_K: "2", AUTH_K: "3", K: "4" };
  assert.equal(lookupEnv("K", reader(all)), "1");
  assert.equal(lookupEnv("K", reader({ SERVICE_K: "2", AUTH_K: "3", K: "4" })), "2");
  assert.equal(lookupEnv("K", reader({ AUTH_K: "3", K: "4" })), "3");
  assert.equal(lookupEnv("K", reader({ K: "4" })), "4");
});

Deno.test("lookupEnv skips empty values", () => {
  assert.equal(lookupEnv("K", reader({ SERVICE_AUTH_K: "", SERVICE_K: "", AUTH_K: "x" })), "x");
  assert.equal(lookupEnv("K", reader({ SERVICE_AUTH_K: "", K: "" })), undefined);
});

Deno.test("lookupEnv keeps whitespace values as given", () => {
  assert.equal(lookupEnv("K", reader({ AUTH_K: " a " })), " a ");
});

Deno.test("parseList splits on comma, semicolon and newline and drops empties", () => {
  assert.deepEqual(parseList(" https://a.example ,https://b.example;;\r\nhttps://c.example\n,"), [
    "https://a.example",
    "https://b.example",
    "https://c.example",
  ]);
  assert.deepEqual(parseList(""), []);
  assert.deepEqual(parseList(" ; , \n "), []);
});

Deno.test("parseDebug accepts 1, true, yes, on, debug in any case", () => {
  for (const v of ["1", "true", "TRUE", "Yes", "on", "ON", "debug", " Debug "]) {
    assert.equal(parseDebug(v), true, v);
  }
});

Deno.test("parseDebug is off for anything else", () => {
  for (const v of [undefined, "", "0", "false", "no", "off", "enabled", "2", "y"]) {
    assert.equal(parseDebug(v), false, String(v));
  }
});

Deno.test("parseLogLevel accepts the four levels case-insensitively", () => {
  assert.equal(parseLogLevel("debug"), "debug");
  assert.equal(parseLogLevel("Info"), "info");
  assert.equal(parseLogLevel(" WARN "), "warn");
  assert.equal(parseLogLevel("error"), "error");
});

Deno.test("parseLogLevel returns undefined for unknown or missing levels", () => {
  for (const v of [undefined, "", "verbose", "warning", "trace", "fatal"]) {
    assert.equal(parseLogLevel(v), undefined, String(v));
  }
});

Deno.test("readRuntimeEnv returns undefined for an invalid variable name without throwing", () => {
  assert.equal(readRuntimeEnv(""), undefined);
  assert.equal(readRuntimeEnv("A=B"), undefined);
  assert.equal(readRuntimeEnv("A\0B"), undefined);
});

const SCRIPT = `
import { lookupEnv, readRuntimeEnv } from ${
  JSON.stringify(new URL("../src/env.ts", import.meta.url).href)
};
console.log(JSON.stringify({ direct: readRuntimeEnv("SSA_ENV_PROBE") ?? null, lookup: lookupEnv("ENV_PROBE") ?? null }));
`;

async function runProbe(
  permissions: string[],
): Promise<{ code: number; out: string; err: string }> {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/probe.ts`;
    await Deno.writeTextFile(file, SCRIPT);
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", ...permissions, file],
      env: { SSA_ENV_PROBE: "probe-value", AUTH_ENV_PROBE: "from-auth", DENO_NO_UPDATE_CHECK: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    return { code, out: decoder.decode(stdout).trim(), err: decoder.decode(stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("readRuntimeEnv without --allow-env returns undefined and never prompts or throws", async () => {
  const { code, out, err } = await runProbe(["--allow-read"]);
  assert.equal(code, 0, err);
  assert.deepEqual(JSON.parse(out), { direct: null, lookup: null });
  assert.doesNotMatch(err, /Requires env access|NotCapable|PermissionDenied/);
});

Deno.test("readRuntimeEnv with --allow-env reads a set variable", async () => {
  const { code, out, err } = await runProbe(["--allow-read", "--allow-env"]);
  assert.equal(code, 0, err);
  assert.deepEqual(JSON.parse(out), { direct: "probe-value", lookup: "from-auth" });
});

Deno.test("readRuntimeEnv reads only the variables a scoped --allow-env grants", async () => {
  const { code, out, err } = await runProbe(["--allow-read", "--allow-env=SSA_ENV_PROBE"]);
  assert.equal(code, 0, err);
  assert.deepEqual(JSON.parse(out), { direct: "probe-value", lookup: null });
});

async function nodeAvailable(): Promise<boolean> {
  try {
    const { code } = await new Deno.Command("node", { args: ["--version"], stdout: "null" })
      .output();
    return code === 0;
  } catch {
    return false;
  }
}

Deno.test({
  name: "readRuntimeEnv and lookupEnv read process.env on Node",
  ignore: !(await nodeAvailable()),
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      const bundle = `${dir}/env.mjs`;
      const built = await new Deno.Command(Deno.execPath(), {
        args: [
          "bundle",
          "--quiet",
          new URL("../src/env.ts", import.meta.url).pathname,
          "-o",
          bundle,
        ],
        env: { DENO_NO_UPDATE_CHECK: "1" },
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).output();
      assert.equal(built.code, 0, new TextDecoder().decode(built.stderr));
      const code = `import(${JSON.stringify(bundle)}).then((m) => console.log(JSON.stringify(` +
        `{ direct: m.readRuntimeEnv("SSA_ENV_PROBE") ?? null, missing: m.readRuntimeEnv("SSA_UNSET_PROBE") ?? null, lookup: m.lookupEnv("ENV_PROBE") ?? null })))`;
      const { code: exit, stdout, stderr } = await new Deno.Command("node", {
        args: ["-e", code],
        env: { SSA_ENV_PROBE: "probe-value", SERVICE_ENV_PROBE: "", AUTH_ENV_PROBE: "from-auth" },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(exit, 0, new TextDecoder().decode(stderr));
      assert.deepEqual(JSON.parse(new TextDecoder().decode(stdout)), {
        direct: "probe-value",
        missing: null,
        lookup: "from-auth",
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

// createAuth's messages when the environment could not be read.

const CREATE_AUTH_SCRIPT = `
import { createAuth } from ${JSON.stringify(new URL("../mod.ts", import.meta.url).href)};
const oauth = Deno.args[0] === "github" ? ["github"] : [];
const secret = Deno.args[0] === "github" ? "s".repeat(43) : undefined;
try {
  createAuth({ oauth, secret, logger: false });
  console.log(JSON.stringify({ created: true }));
} catch (error) {
  console.log(JSON.stringify({ created: false, message: error.message }));
}
`;

/** The variables a child process needs to find its tools and Deno's cache, and nothing else. */
function inherited(): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

async function runCreateAuth(
  permissions: string[],
  args: string[] = [],
  env: Record<string, string> = { AUTH_SECRET: "an-environment-secret-0123456789abcdef-0123" },
): Promise<{ created: boolean; message?: string }> {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/create_auth.ts`;
    await Deno.writeTextFile(file, CREATE_AUTH_SCRIPT);
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "--no-prompt", ...permissions, file, ...args],
      // Only what is given here: other test files run in this process and may set variables.
      clearEnv: true,
      env: {
        ...inherited(),
        ...env,
        GITHUB_CLIENT_ID: "gh-id",
        GITHUB_CLIENT_SECRET: "gh-secret",
        DENO_NO_UPDATE_CHECK: "1",
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    assert.equal(code, 0, decoder.decode(stderr));
    return JSON.parse(decoder.decode(stdout));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("without --allow-env, a missing secret says the environment could not be read and how to allow it", async () => {
  const result = await runCreateAuth([]);
  assert.equal(result.created, false);
  assert.match(
    result.message!,
    /^createAuth: no secret was found: the environment could not be read/,
  );
  assert.match(
    result.message!,
    /without --allow-env for SERVICE_AUTH_SECRET, SERVICE_SECRET, AUTH_SECRET, SECRET;/,
  );
  assert.match(result.message!, /expected --allow-env \(or --allow-env=AUTH_SECRET/);
});

Deno.test("with --allow-env=AUTH_SECRET alone the environment's secret is read", async () => {
  assert.deepEqual(await runCreateAuth(["--allow-env=AUTH_SECRET"]), { created: true });
  assert.deepEqual(await runCreateAuth(["--allow-env"]), { created: true });
});

Deno.test("with the secret's names granted but unset, the message is the plain one", async () => {
  const names = "SERVICE_AUTH_SECRET,SERVICE_SECRET,AUTH_SECRET,SECRET";
  const result = await runCreateAuth([`--allow-env=${names}`], [], {});
  assert.equal(result.created, false);
  assert.match(result.message!, /no secret was found; expected AUTH_SECRET \(or SECRET\)/);
});

Deno.test("without --allow-env, a built-in provider's missing client id says how to allow it", async () => {
  const result = await runCreateAuth([], ["github"]);
  assert.equal(result.created, false);
  assert.match(
    result.message!,
    /provider "github" has no client id: the environment could not be read: Deno runs without --allow-env for .*GITHUB_CLIENT_ID; expected --allow-env \(or --allow-env=AUTH_GITHUB_CLIENT_ID/,
  );
});

Deno.test("with an env object of the app's own, a missing secret gives the plain message", async () => {
  const { createAuth } = await import("../mod.ts");
  assert.throws(
    () => createAuth({ oauth: [], env: {}, logger: false }),
    (error: unknown) =>
      error instanceof TypeError &&
      /no secret was found; expected AUTH_SECRET \(or SECRET\) in the environment/.test(
        error.message,
      ),
  );
});
