// A provider body that stalls after its headers is cut off by the read
// deadline even when a custom fetch ignores the abort signal.
import assert from "node:assert/strict";
import { AuthError } from "../../mod.ts";
import { readProviderText } from "../../src/oauth/provider_fetch.ts";

Deno.test("a stalled provider body fails with a 502 after the read deadline", async () => {
  const stalled = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"access_token":'));
      // Never closes: the rest of the body never arrives.
    },
  });
  const response = new Response(stalled, { headers: { "Content-Type": "application/json" } });
  await assert.rejects(readProviderText(response, "token", 50), (error: unknown) => {
    assert.ok(error instanceof AuthError);
    assert.equal(error.code, "server_error");
    assert.equal(error.status, 502);
    assert.match(error.description, /did not answer in time/);
    return true;
  });
});

Deno.test("a provider body that completes in time is read whole", async () => {
  const response = new Response('{"ok":true}');
  assert.equal(await readProviderText(response, "token", 1_000), '{"ok":true}');
});
