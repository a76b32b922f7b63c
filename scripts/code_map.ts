/**
 * The shape of `src/` in numbers: the import graph between its folders and
 * top-level modules, the largest files, and the longest functions. Rerun on
 * any commit to compare: `deno run -A scripts/code_map.ts [dir]`.
 *
 * @module
 */

const root = Deno.args[0] ?? ".";
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...await files(path));
    else if (path.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** The node a file belongs to: its folder under src/, or the file itself at the top. */
function node(file: string): string {
  const rel = file.slice(file.indexOf("src/") + 4);
  const slash = rel.indexOf("/");
  return slash === -1 ? rel.replace(/\.ts$/, "") : `${rel.slice(0, slash)}/`;
}

const sources = (await files(`${root}/src`)).sort();
const edges = new Map<string, Set<string>>();
const lines: [string, number][] = [];
const functions: [string, number][] = [];
for (const file of sources) {
  const text = await Deno.readTextFile(file);
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  lines.push([file.slice(root.length + 1), text.split("\n").length]);
  for (const m of code.matchAll(IMPORT)) {
    const target = new URL(m[1], `file://${Deno.realPathSync(file)}`).pathname;
    if (!target.includes("/src/")) continue;
    const [from, to] = [node(file), node(target)];
    if (from !== to) (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(to);
  }
  // A top-level or exported function, or a method of a returned object literal: count to its end.
  const all = text.split("\n");
  all.forEach((line, i) => {
    const m = /^(?:export )?(?:async )?function\*? (\w+)|^ {2}(?:async )?(\w+)\(.*\)(?:: .*)? \{$/
      .exec(line);
    if (!m) return;
    const indent = line.match(/^\s*/)![0].length;
    for (let j = i + 1; j < all.length; j++) {
      if (all[j].startsWith(`${" ".repeat(indent)}}`)) {
        functions.push([`${file.slice(root.length + 1)} ${m[1] ?? m[2]}`, j - i + 1]);
        return;
      }
    }
  });
}

console.log("## Import graph (src/ folders and top-level modules)\n");
for (const [from, to] of [...edges].sort()) console.log(`${from} -> ${[...to].sort().join(", ")}`);
console.log("\n## Largest files\n");
for (const [file, count] of lines.sort((a, b) => b[1] - a[1]).slice(0, 10)) {
  console.log(`${count}\t${file}`);
}
console.log("\n## Longest functions\n");
for (const [name, count] of functions.sort((a, b) => b[1] - a[1]).slice(0, 10)) {
  console.log(`${count}\t${name}`);
}
