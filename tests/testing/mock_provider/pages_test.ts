import assert from "node:assert/strict";
import { errorPage } from "../../../src/testing/mock_provider/pages.ts";

Deno.test("the 400 page escapes its error code and description", async () => {
  const html = await errorPage("<script>alert(1)</script>", 'a "b" & <i>c</i>').text();
  assert.equal(html.includes("<script>"), false);
  assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt;"));
  assert.ok(html.includes("a &quot;b&quot; &amp; &lt;i&gt;c&lt;/i&gt;"));
});
