// The built-in providers are listed once (src/oauth/providers/all.ts): both
// entry points export exactly the providers of the table, the same objects.
import assert from "node:assert/strict";
import * as main from "../../../mod.ts";
import * as core from "../../../core.ts";
import { builtInProviders } from "../../../src/oauth/providers/mod.ts";

/** The names of an entry's exports that are providers (an id and a profile mapper). */
function providersExported(entry: Record<string, unknown>): string[] {
  return Object.keys(entry).filter((name) => {
    const value = entry[name] as { id?: unknown; profile?: unknown } | null;
    return typeof value === "object" && value !== null && typeof value.id === "string" &&
      typeof value.profile === "function";
  }).sort();
}

Deno.test("mod.ts and core.ts export every built-in provider of the table, as the same object", () => {
  const ids = Object.keys(builtInProviders).sort();
  assert.equal(ids.length, 33);
  for (const entry of [main, core] as Record<string, unknown>[]) {
    assert.deepEqual(providersExported(entry), ids);
    for (const id of ids) {
      assert.equal(entry[id], builtInProviders[id as keyof typeof builtInProviders]);
    }
  }
});

Deno.test("each built-in provider is keyed by its own id", () => {
  for (const [key, provider] of Object.entries(builtInProviders)) assert.equal(provider.id, key);
});
