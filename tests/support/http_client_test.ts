import assert from "node:assert/strict";
import { HttpClient } from "./http_client.ts";

/** Serves `handler` on a loopback port for the duration of `fn`. */
async function withServer(
  handler: (request: Request) => Response | Promise<Response>,
  fn: (origin: string) => Promise<void>,
): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

function redirect(location: string, status = 302, cookies: string[] = []): Response {
  const headers = new Headers({ location });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(null, { status, headers });
}

Deno.test("follow carries cookies set along a redirect chain", async () => {
  await withServer((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/start") return redirect("/middle", 302, ["a=1; Path=/"]);
    if (path === "/middle") return redirect("/end", 303, ["b=2; Path=/"]);
    return new Response(request.headers.get("cookie"));
  }, async (origin) => {
    const client = new HttpClient();
    const { response, hops, url } = await client.follow(`${origin}/start`);
    assert.equal(await response.text(), "a=1; b=2");
    assert.deepEqual(hops.map((hop) => hop.status), [302, 303, 200]);
    assert.equal(url, `${origin}/end`);
  });
});

Deno.test("a 303 after a POST becomes a GET without body", async () => {
  await withServer(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/form") return redirect("/done", 303);
    return new Response(`${request.method} ${await request.text()}`);
  }, async (origin) => {
    const client = new HttpClient();
    const { response } = await client.follow(`${origin}/form`, { method: "POST", body: "x=1" });
    assert.equal(await response.text(), "GET ");
  });
});

Deno.test("a 307 repeats the method and body", async () => {
  await withServer(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/form") return redirect("/done", 307);
    return new Response(`${request.method} ${await request.text()}`);
  }, async (origin) => {
    const client = new HttpClient();
    const { response } = await client.follow(`${origin}/form`, { method: "POST", body: "x=1" });
    assert.equal(await response.text(), "POST x=1");
  });
});

Deno.test("stopBefore returns the redirect instead of following it", async () => {
  await withServer(() => redirect("https://provider.test/authorize?state=s"), async (origin) => {
    const client = new HttpClient();
    const { response, hops } = await client.follow(`${origin}/signin`, {}, {
      stopBefore: (url) => url.origin !== origin,
    });
    assert.equal(response.status, 302);
    assert.equal(hops[0].location, "https://provider.test/authorize?state=s");
  });
});

Deno.test("follow refuses an endless redirect loop", async () => {
  await withServer(() => redirect("/loop"), async (origin) => {
    const client = new HttpClient();
    await assert.rejects(
      client.follow(`${origin}/loop`, {}, { maxRedirects: 3 }),
      /More than 3 redirects/,
    );
  });
});

Deno.test("default headers are sent unless the request overrides them", async () => {
  await withServer((request) => new Response(request.headers.get("origin")), async (origin) => {
    const client = new HttpClient({ headers: { origin: "http://app.test" } });
    const first = await client.fetch(`${origin}/`);
    const second = await client.fetch(`${origin}/`, { headers: { origin: "http://other.test" } });
    assert.equal(await first.text(), "http://app.test");
    assert.equal(await second.text(), "http://other.test");
  });
});

Deno.test("a custom fetch answers hosts that are not on the network", async () => {
  await withServer(() => redirect("http://provider.localhost/authorize"), async (origin) => {
    function routed(request: Request): Promise<Response> {
      if (new URL(request.url).host === "provider.localhost") {
        return Promise.resolve(new Response(`provider saw ${request.method}`));
      }
      return fetch(request);
    }
    const client = new HttpClient({ fetch: routed });
    const { response, url } = await client.follow(`${origin}/signin`);
    assert.equal(await response.text(), "provider saw GET");
    assert.equal(url, "http://provider.localhost/authorize");
  });
});
