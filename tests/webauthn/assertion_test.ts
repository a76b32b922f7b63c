import assert from "node:assert/strict";
import { ALG_NAMES, ALGS } from "./_authenticator.ts";
import { ASSERTION_CASES } from "./_cases.ts";
import { applies, oursAssertion, prepareAssertion } from "./_run.ts";

for (const alg of ALGS) {
  for (const c of ASSERTION_CASES) {
    if (!applies(c, alg)) continue;
    const verb = c.reason ? `refuses (${c.reason})` : "accepts";
    Deno.test(`assertion ${c.step}, ${ALG_NAMES[alg]}: ${verb} ${c.name}`, async () => {
      const prepared = await prepareAssertion(alg, c);
      const result = await oursAssertion(prepared);
      if (c.reason) assert.deepEqual(result, { ok: false, reason: c.reason });
      else assert.equal(result.ok, true, JSON.stringify(result));
    });
  }
}
