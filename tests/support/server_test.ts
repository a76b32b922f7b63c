import assert from "node:assert/strict";
import { freePort, startServer } from "./server.ts";

const FIXTURES = "tests/support/fixtures";

async function refusesConnections(url: string): Promise<boolean> {
  try {
    const response = await fetch(url);
    await response.body?.cancel();
    return false;
  } catch {
    return true;
  }
}

function processExists(pid: number): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}

Deno.test("startServer returns the URL from the server's listening line", async () => {
  await using server = await startServer("deno", `${FIXTURES}/default_banner.ts`);
  const response = await fetch(`${server.url}/hello`);
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.notEqual(server.port, 0);
  assert.equal(await response.text(), "GET /hello PORT=0");
});

Deno.test("startServer passes a chosen port as PORT", async () => {
  const port = freePort();
  await using server = await startServer("deno", `${FIXTURES}/default_banner.ts`, { port });
  const response = await fetch(`${server.url}/`);
  assert.equal(server.port, port);
  assert.equal(await response.text(), `GET / PORT=${port}`);
});

Deno.test("stop ends the process and frees the port", async () => {
  const server = await startServer("deno", `${FIXTURES}/default_banner.ts`);
  await server.stop();
  assert.equal(processExists(server.pid), false);
  assert.equal(await refusesConnections(server.url), true);
});

Deno.test("stop kills a server that ignores SIGTERM", async () => {
  const server = await startServer("deno", `${FIXTURES}/ignores_sigterm.ts`);
  const started = performance.now();
  await server.stop();
  assert.equal(processExists(server.pid), false);
  assert.ok(performance.now() - started < 10_000);
  assert.match(server.output(), /ignoring SIGTERM/);
});

Deno.test("startServer reports the output of a server that exits before listening", async () => {
  await assert.rejects(
    startServer("deno", `${FIXTURES}/exits_early.ts`),
    /exited with code 3 before listening[\s\S]*boom: missing configuration/,
  );
});

Deno.test("startServer gives up on a silent server after the timeout", async () => {
  const started = performance.now();
  await assert.rejects(
    startServer("deno", `${FIXTURES}/silent.ts`, { timeoutMs: 1_500 }),
    /printed no "listening on http:\/\/\.\.\." line within 1500 ms/,
  );
  assert.ok(performance.now() - started < 8_000);
});
