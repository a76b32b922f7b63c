// The handlers' optional second argument (the client's address) keeps them usable everywhere they
// were: passed to Deno.serve and toNodeHandler as they are, and exported from a Next.js route
// module, whose build checks a route handler's second parameter against its own `{ params }`.
// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { type ClientInfo, createAuth, type Handler } from "../../mod.ts";
import { toNodeHandler } from "../../node.ts";

// Next.js's check, restated: a handler's second parameter type must be one its `{ params }`
// context fits, or be read as `any` (no second parameter: `unknown` is inferred).
type SecondArgOf<T> = T extends (...args: [any, infer A]) => any ? unknown extends A ? any : A
  : never;
type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
type FitsNextRoute<T extends RouteContext> = T;

export type HandlersFitNextRoutes = FitsNextRoute<SecondArgOf<Handler>>;
// The check is real: a handler declared with one signature taking ClientInfo would fail it.
type OneSignature = (request: Request, info?: ClientInfo) => Promise<Response>;
// @ts-expect-error ClientInfo | undefined does not take Next.js's { params }
export type OneSignatureFails = FitsNextRoute<SecondArgOf<OneSignature>>;

Deno.test("the handlers type-check with Deno.serve's info, toNodeHandler and a Next.js route", async () => {
  const auth = createAuth({ oauth: [], secret: "handler-types-secret-0123456789-abcdef" });
  const serve: Deno.ServeHandler = auth.handlers.ALL;
  const node = toNodeHandler(auth.handlers.ALL);
  const { GET } = auth.handlers;
  // What Next.js passes as the second argument: read as no address, never a crash.
  const response = await (GET as (request: Request, context: RouteContext) => Promise<Response>)(
    new Request("http://localhost/auth/session"),
    { params: Promise.resolve({ path: ["session"] }) },
  );
  assert.equal(response.status, 200);
  assert.equal(typeof serve, "function");
  assert.equal(typeof node, "function");
});
