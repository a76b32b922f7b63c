/**
 * `GET /session` over HTTP, every contestant in one run: wrk (50
 * connections, loopback) against a bare no-crypto `Deno.serve`, the same
 * with the three headers every response of ours must carry, a bare server
 * making the two Web Crypto calls of a sealed read, and ours stateless, with
 * `memoryStore()` and with `redisStore()` on a real redis-server; "cold"
 * sends a random one of 20,000 sessions (the verified-token cache holds
 * 1,024), "cached" one session. Every contestant gets the same requests: the
 * bare servers are sent the stateless contestant's session cookies too.
 * Prints requests per second and ratios.
 *
 * Run alone on a quiet machine: `deno run -A bench/http_compare.ts`
 * (installs wrk and redis-server with apt-get when they are missing).
 *
 * @module
 */

import { startRedisServer } from "../tests/support/redis_server.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? "8");
const COLD_SESSIONS = 20_000;
const dir = await Deno.makeTempDir({ prefix: "http_compare_" });

async function has(binary: string): Promise<boolean> {
  try {
    return (await new Deno.Command("which", { args: [binary], stdout: "null", stderr: "null" })
      .output()).success;
  } catch {
    return false;
  }
}

for (const [binary, pkg] of [["wrk", "wrk"], ["redis-server", "redis-server"]]) {
  if (!(await has(binary))) {
    await new Deno.Command("apt-get", {
      args: ["install", "-y", pkg],
      stdout: "null",
      stderr: "null",
    }).output();
  }
}

/** Starts a contestant and resolves its port once it listens. */
async function serve(mode: string, args: string[] = []) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./_http_server.ts", import.meta.url).pathname, mode, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/PORT (\d+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${mode} exited before listening`);
    text += value;
  }
  reader.releaseLock();
  return { port: Number(/PORT (\d+)/.exec(text)![1]), stop: () => child.kill("SIGTERM") };
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

async function wrk(port: number, script?: string): Promise<number> {
  const args = ["-t2", "-c50", `-d${SECONDS}s`, "--latency"];
  if (script) args.push("-s", script);
  args.push(`http://127.0.0.1:${port}/auth/session`);
  const out = await new Deno.Command("wrk", { args, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(text);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  if (!rate || non2xx) throw new Error(`wrk failed or saw errors:\n${text}`);
  return Number(rate[1]);
}

const results: [string, number][] = [];
async function contest(
  name: string,
  mode: string,
  options: { count?: number; random?: boolean; redis?: string } = {},
) {
  const count = options.count ?? 1;
  // Bare servers mint nothing: they are sent the cookies the stateless contestant minted.
  const cookies = `${dir}/${mode.startsWith("ours") ? mode : "ours"}-${count}.txt`;
  const args = [`--cookies=${cookies}`, `--count=${count}`];
  if (options.redis) args.push(`--redis=${options.redis}`);
  const server = await serve(mode, args);
  try {
    const script = `${dir}/${name.replace(/\W+/g, "_")}.lua`;
    await Deno.writeTextFile(script, LUA(cookies, options.random ?? false));
    await wrk(server.port, script).catch(() => 0); // warm-up
    results.push([name, await wrk(server.port, script)]);
    console.log(`${name}: ${results.at(-1)![1].toFixed(0)} req/s`);
  } finally {
    server.stop();
  }
}

await using redis = await startRedisServer({
  binary: Deno.env.get("REDIS_SERVER_BIN") ?? "redis-server",
});
await contest("ours stateless, cached", "ours", {});
await contest("ours stateless, cold", "ours", { count: COLD_SESSIONS, random: true });
await contest("bare Deno.serve, no crypto", "bare-none");
await contest("bare Deno.serve, no crypto, our 3 headers", "bare-headers");
await contest("bare Deno.serve, 2 Web Crypto calls", "bare-crypto", {
  count: COLD_SESSIONS,
  random: true,
});
await contest("ours memoryStore, cached", "ours-memory", {});
await contest("ours memoryStore, cold", "ours-memory", { count: COLD_SESSIONS, random: true });
await contest("ours redisStore, cached", "ours-redis", { redis: redis.url });
await contest("ours redisStore, cold", "ours-redis", {
  count: COLD_SESSIONS,
  random: true,
  redis: redis.url,
});
await Deno.remove(dir, { recursive: true });

const rate = Object.fromEntries(results);
const ratio = (a: string, b: string) => (rate[a] / rate[b]).toFixed(2);
console.log("\n| contestant | req/s |\n|---|---|");
for (const [name, value] of results) console.log(`| ${name} | ${value.toFixed(0)} |`);
console.log(`
ratios:
- stateless cold / bare 2 Web Crypto calls: ${
  ratio("ours stateless, cold", "bare Deno.serve, 2 Web Crypto calls")
} (target >= 0.8)
- stateless cached / bare no crypto: ${
  ratio("ours stateless, cached", "bare Deno.serve, no crypto")
} (target >= 0.7)
- stateless cached / bare no crypto with our 3 headers: ${
  ratio("ours stateless, cached", "bare Deno.serve, no crypto, our 3 headers")
}
- memoryStore cold / stateless cold: ${
  ratio("ours memoryStore, cold", "ours stateless, cold")
} (target >= 0.9)
- redisStore cold / stateless cold: ${
  ratio("ours redisStore, cold", "ours stateless, cold")
} (target >= 0.6)
- redisStore cached / stateless cached: ${
  ratio("ours redisStore, cached", "ours stateless, cached")
}`);
