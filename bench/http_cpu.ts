/**
 * Server CPU per request of `GET /session` over HTTP (wrk, 50 connections,
 * loopback): the server process's user + system time while wrk runs,
 * divided by the requests wrk completed. Less swayed by the machine's other
 * load than requests per second. Contestants run in alternated rounds and
 * each reports its median; ratios are bare CPU / ours (1.0 = as cheap as
 * the bare server, higher is better for ours).
 *
 * Contestants: `bare-headers` (a bare `Deno.serve` reading the Cookie
 * header and answering the same body with the same three headers),
 * `bare-crypto` (the two Web Crypto calls of a sealed read), and ours
 * stateless with one cached session or 20,000 cold ones. `--compare=DIR`
 * adds ours from another checkout (e.g. a `git worktree` of the previous
 * commit), so that a change is measured against its parent in one run.
 *
 * `--sql` adds ours cold with `sqlStore` on PostgreSQL (a server started
 * here, through `pg` and `postgres.js`) and on SQLite (`node:sqlite`), each
 * against ours cold without a store (issue 30: at least 0.5x and 0.7x).
 *
 * Run alone: `deno run -A bench/http_cpu.ts [--rounds=3] [--seconds=5] [--compare=DIR] [--sql]`.
 *
 * @module
 */

import { startPostgres } from "../tests/support/postgres_server.ts";

const option = (name: string) =>
  Deno.args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const ROUNDS = Number(option("rounds") ?? "3");
const SECONDS = Number(option("seconds") ?? "5");
const COMPARE = option("compare");
const ONLY = option("only")?.split(",");
const SQL = Deno.args.includes("--sql");
const COLD_SESSIONS = 20_000;
const HERE = new URL("./_http_server.ts", import.meta.url).pathname;
const dir = await Deno.makeTempDir({ prefix: "http_cpu_" });

interface Contestant {
  name: string;
  server: string;
  mode: string;
  cookies: string;
  count: number;
  random: boolean;
  /** More arguments for the server (e.g. the PostgreSQL URL). */
  extra?: string[];
}

/** CPU ticks (user + system) the process has used, from /proc. */
async function cpuTicks(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of stat (utime, stime), counted after the command name.
  return Number(fields[11]) + Number(fields[12]);
}

const TICKS_PER_SECOND = 100;

async function serve(contestant: Contestant) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      contestant.server,
      contestant.mode,
      `--cookies=${contestant.cookies}`,
      `--count=${contestant.count}`,
      ...contestant.extra ?? [],
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/PORT (\d+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${contestant.name} exited before listening`);
    text += value;
  }
  reader.releaseLock();
  return {
    pid: child.pid,
    port: Number(/PORT (\d+)/.exec(text)![1]),
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

const LUA = (file: string, random: boolean) => `
local cookies = {}
for line in io.lines("${file}") do cookies[#cookies + 1] = line end
math.randomseed(42)
request = function()
  local cookie = ${random ? "cookies[math.random(#cookies)]" : "cookies[1]"}
  return wrk.format("GET", "/auth/session", { ["Cookie"] = cookie })
end
`;

async function wrk(port: number, script: string, seconds: number): Promise<number> {
  const out = await new Deno.Command("wrk", {
    args: ["-t2", "-c50", `-d${seconds}s`, "-s", script, `http://127.0.0.1:${port}/auth/session`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const requests = /(\d+) requests in/.exec(text);
  if (!requests || /Non-2xx/.test(text)) throw new Error(`wrk failed or saw errors:\n${text}`);
  return Number(requests[1]);
}

/** Microseconds of server CPU per request for one run of a contestant. */
async function measure(contestant: Contestant): Promise<number> {
  const server = await serve(contestant);
  try {
    const script = `${dir}/${contestant.name.replace(/\W+/g, "_")}.lua`;
    await Deno.writeTextFile(script, LUA(contestant.cookies, contestant.random));
    await wrk(server.port, script, 2); // warm-up: JIT and caches
    const before = await cpuTicks(server.pid);
    const requests = await wrk(server.port, script, SECONDS);
    const ticks = await cpuTicks(server.pid) - before;
    return ticks / TICKS_PER_SECOND * 1e6 / requests;
  } finally {
    await server.stop();
  }
}

const cached = `${dir}/ours-1.txt`;
const cold = `${dir}/ours-${COLD_SESSIONS}.txt`;
const contestants: Contestant[] = [
  { name: "bare headers", server: HERE, mode: "bare-headers", cookies: cached, count: 1 },
  { name: "bare url", server: HERE, mode: "bare-url", cookies: cached, count: 1 },
  { name: "bare async", server: HERE, mode: "bare-async", cookies: cached, count: 1 },
  { name: "ours cached", server: HERE, mode: "ours", cookies: cached, count: 1 },
  { name: "bare crypto", server: HERE, mode: "bare-crypto", cookies: cold, count: COLD_SESSIONS },
  { name: "ours cold", server: HERE, mode: "ours", cookies: cold, count: COLD_SESSIONS },
].map((item) => ({ ...item, random: item.count > 1 }));
if (COMPARE !== undefined) {
  const server = `${COMPARE.replace(/\/$/, "")}/bench/_http_server.ts`;
  contestants.push(
    { name: "compared cached", server, mode: "ours", cookies: cached, count: 1, random: false },
  );
}
const postgresServer = SQL ? await startPostgres({ maxConnections: 200 }) : undefined;
if (postgresServer !== undefined) {
  const extra = [`--postgres=${postgresServer.url}`];
  for (const [name, mode] of [["pg", "ours-sql-pg"], ["postgres.js", "ours-sql-postgresjs"]]) {
    // Each server mints its own cold sessions into its own tables.
    const cookies = `${dir}/sql-${mode}.txt`;
    contestants.push({
      name: `sql ${name} cold`,
      server: HERE,
      mode,
      cookies,
      count: COLD_SESSIONS,
      random: true,
      extra,
    });
  }
  const cookies = `${dir}/sql-sqlite.txt`;
  contestants.push({
    name: "sql sqlite cold",
    server: HERE,
    mode: "ours-sql-sqlite",
    cookies,
    count: COLD_SESSIONS,
    random: true,
  });
}
const chosen = contestants.filter((item) => ONLY === undefined || ONLY.includes(item.name));

// Ours mints the cookie files; bare servers are sent the same cookies. Mint them first.
for (const contestant of chosen) {
  if (contestant.mode === "ours" && contestant.server === HERE) {
    try {
      await Deno.stat(contestant.cookies);
    } catch {
      await (await serve(contestant)).stop();
    }
  }
}

const results = new Map<string, number[]>(chosen.map((item) => [item.name, []]));
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 === 1 ? chosen : [...chosen].reverse();
  for (const contestant of order) {
    const perRequest = await measure(contestant);
    results.get(contestant.name)!.push(perRequest);
    console.log(`round ${round}, ${contestant.name}: ${perRequest.toFixed(2)} µs CPU/request`);
  }
}
await Deno.remove(dir, { recursive: true });
await postgresServer?.stop();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
console.log("\n| contestant | median µs CPU/request | rounds |\n|---|---|---|");
for (const [name, values] of results) {
  console.log(
    `| ${name} | ${median(values).toFixed(2)} | ${values.map((v) => v.toFixed(2)).join(", ")} |`,
  );
}
const ratio = (bare: string, ours: string) =>
  results.has(bare) && results.has(ours)
    ? (median(results.get(bare)!) / median(results.get(ours)!)).toFixed(2)
    : "-";
console.log(`
bare CPU / ours (per request, medians; >= 1 means ours is as cheap):
- cached: bare headers / ours cached = ${ratio("bare headers", "ours cached")} (target >= 0.85)
- cold: bare crypto / ours cold = ${ratio("bare crypto", "ours cold")}
- compared cached: bare headers / compared cached = ${ratio("bare headers", "compared cached")}`);
if (SQL) {
  console.log(`ours cold without a store / with sqlStore (per request, medians):
- PostgreSQL, pg: ${ratio("ours cold", "sql pg cold")} (target >= 0.5 with the faster driver)
- PostgreSQL, postgres.js: ${ratio("ours cold", "sql postgres.js cold")}
- SQLite, node:sqlite: ${ratio("ours cold", "sql sqlite cold")} (target >= 0.7)`);
}
