/**
 * The npm packages that tests run under real Node rather than Deno: Express
 * and Hono for the adapter tests and the examples, TypeScript and Node's
 * types for the check of the published declarations. `deno install
 * --entrypoint` of this file puts them in `node_modules/` at the versions
 * `deno.lock` pins (see `installNodePackages` in `tests/support/npm_package.ts`).
 *
 * @module
 */

import "express";
import "hono";
import "@hono/node-server";
// deno-lint-ignore no-import-prefix -- test-only; the same pin as scripts/build_npm.ts.
import "npm:typescript@5";
// deno-lint-ignore no-import-prefix -- test-only; types for a Node app, kept out of the import map.
import type {} from "npm:@types/node@20";
