import assert from "node:assert/strict";
import { ALG_NAMES, ALGS } from "./_authenticator.ts";
import { REGISTRATION_CASES } from "./_cases.ts";
import { applies, oursRegistration, prepareRegistration } from "./_run.ts";

for (const alg of ALGS) {
  for (const c of REGISTRATION_CASES) {
    if (!applies(c, alg)) continue;
    const verb = c.reason ? `refuses (${c.reason})` : "accepts";
    Deno.test(`registration ${c.step}, ${ALG_NAMES[alg]}: ${verb} ${c.name}`, async () => {
      const prepared = await prepareRegistration(alg, c);
      const result = await oursRegistration(prepared, alg);
      if (c.reason) assert.deepEqual(result, { ok: false, reason: c.reason });
      else assert.equal(result.ok, true, JSON.stringify(result));
    });
  }
}
