import assert from "node:assert/strict";
import { readLimitedBody, utf8Text } from "../src/body.ts";

function stream(chunks: Uint8Array[], options: { stall?: boolean; fail?: boolean } = {}) {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (options.fail) controller.error(new Error("broken"));
      else if (!options.stall) controller.close();
    },
  });
}

Deno.test("readLimitedBody joins the chunks of a body within the limit", async () => {
  const result = await readLimitedBody(stream([new Uint8Array([1, 2]), new Uint8Array([3])]), {
    maxBytes: 3,
  });
  assert.deepEqual(result, { ok: true, bytes: new Uint8Array([1, 2, 3]) });
});

Deno.test("readLimitedBody stops one byte over the limit and cancels the stream", async () => {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new Uint8Array(1024));
    },
    cancel() {
      cancelled = true;
    },
  });
  assert.deepEqual(await readLimitedBody(body, { maxBytes: 4096 }), {
    ok: false,
    reason: "too_large",
  });
  assert.ok(cancelled);
});

Deno.test("readLimitedBody gives up on a stalled body at its own deadline", async () => {
  const result = await readLimitedBody(stream([new Uint8Array([1])], { stall: true }), {
    maxBytes: 10,
    timeoutMs: 20,
  });
  assert.deepEqual(result, { ok: false, reason: "timeout" });
});

Deno.test("readLimitedBody reports a failing stream as unreadable, and null as empty", async () => {
  assert.deepEqual(await readLimitedBody(stream([], { fail: true }), { maxBytes: 10 }), {
    ok: false,
    reason: "unreadable",
  });
  assert.deepEqual(await readLimitedBody(null, { maxBytes: 10 }), {
    ok: true,
    bytes: new Uint8Array(),
  });
});

Deno.test("utf8Text refuses malformed UTF-8", () => {
  assert.equal(utf8Text(new Uint8Array([0x68, 0x69])), "hi");
  assert.equal(utf8Text(new Uint8Array([0xc3, 0x28])), undefined);
});
