/**
 * The demo on Hono with `@hono/node-server` (Node 20+): `auth.handlers.ALL`
 * mounted for `/auth/*` and the shared demo app (page, browser client, mock
 * OAuth provider) for everything else. Hono hands over the Web `Request`
 * itself (`c.req.raw`), so no adapter is needed.
 *
 * Run with the packages installed (`npm install hono @hono/node-server` and
 * `@service-stack/auth` as the README's Install or docs/develop.md says):
 * `node examples/hono-node/server.mjs`.
 * `PORT` picks the port (default 8000, `0` for any free one); `AUTH_SECRET`
 * the secret (else a random one is generated at startup).
 *
 * @module
 */

import process from "node:process";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createAuth } from "@service-stack/auth";
import {
  createDemo,
  portFromEnv,
  portInUseMessage,
  readPackageClientModules,
} from "../shared/demo.mjs";

/** @type {(request: Request) => Response | Promise<Response>} */
let handleAuth = () => new Response("Starting, try again in a moment.", { status: 503 });
/** @type {(request: Request) => Response | Promise<Response>} */
let handleDemo = handleAuth;

const app = new Hono();
app.all("/auth/*", (c) => handleAuth(c.req.raw));
app.all("*", (c) => handleDemo(c.req.raw));

const port = portFromEnv(process.env);
const server = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, async (info) => {
  const origin = `http://127.0.0.1:${info.port}`;
  const demo = await createDemo({
    origin,
    env: process.env,
    runtime: `Hono on Node ${process.versions.node}`,
    clientModules: await readPackageClientModules(),
  });
  const auth = createAuth(demo.authConfig);
  handleAuth = auth.handlers.ALL;
  handleDemo = demo.handler(auth);
  console.log(`listening on ${origin}`);
  console.log(`Open ${origin}/ in a browser.`);
});
server.on("error", (/** @type {NodeJS.ErrnoException} */ error) => {
  if (error.code !== "EADDRINUSE") throw error;
  console.error(portInUseMessage(port, "node examples/hono-node/server.mjs"));
  process.exit(1);
});
