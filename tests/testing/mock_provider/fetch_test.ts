import assert from "node:assert/strict";
import { createMockProvider } from "../../../testing.ts";

Deno.test("fetch rejects any other URL with a TypeError", async () => {
  const mock = createMockProvider({ baseURL: "http://idp.localhost/oauth" });
  await assert.rejects(() => mock.fetch("https://example.com/token"), TypeError);
  await assert.rejects(() => mock.fetch("http://idp.localhost/other/token"), TypeError);
  await assert.rejects(() => mock.fetch("http://idp.localhost:8080/oauth/token"), TypeError);
  assert.equal(mock.requests.length, 0);
});

Deno.test("fetch honours an aborted signal", async () => {
  const mock = createMockProvider();
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(() => mock.fetch(mock.provider.userInfo, { signal: controller.signal }));
});
