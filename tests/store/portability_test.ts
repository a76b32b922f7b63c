// The store modules run on any runtime: no Deno global, no imports outside the repository.
import assert from "node:assert/strict";

const FILES = ["redis.ts", "deno_kv.ts"];
for await (const entry of Deno.readDir("src/store")) FILES.push(`src/store/${entry.name}`);

/** Source text without comments, so that JSDoc examples do not count. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

/** Code without string literals, so that messages naming `Deno.openKv()` do not count. */
function withoutStrings(text: string): string {
  return text.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
}

Deno.test("store modules use no Deno global", async () => {
  const offenders: string[] = [];
  for (const file of FILES) {
    const text = withoutStrings(code(await Deno.readTextFile(file)));
    if (/\bDeno\s*\./.test(text)) offenders.push(file);
  }
  assert.deepEqual(offenders, []);
});

Deno.test("the Deno global check sees code but not messages", () => {
  const sample = `throw new Error("expected Deno.openKv()");\nconst kv = await Deno.openKv();`;
  assert.deepEqual(withoutStrings(code(sample)).match(/\bDeno\s*\.\w+/g), ["Deno.openKv"]);
});

Deno.test("store modules import only relative files", async () => {
  const offenders: string[] = [];
  for (const file of FILES) {
    for (const m of code(await Deno.readTextFile(file)).matchAll(/\bfrom\s*["']([^"']+)["']/g)) {
      if (!m[1].startsWith("./") && !m[1].startsWith("../")) offenders.push(`${file}: ${m[1]}`);
    }
  }
  assert.deepEqual(offenders, []);
});
