/**
 * The demo on Node 20+: `node:http` with `toNodeHandler` from
 * `@service-stack/auth/node`, the auth handlers mounted under `/auth/` and the
 * shared demo app (page, browser client, mock OAuth provider) everywhere else.
 *
 * Run with `@service-stack/auth` installed (the README's Install, or the
 * steps of docs/develop.md, which link the npm build here):
 * `node examples/node/server.mjs`. `PORT` picks the port (default 8000, `0`
 * for any free one); `AUTH_SECRET` the secret (else a random one is
 * generated at startup).
 *
 * The browser client is served as the package ships it: `client.js` and the
 * modules it imports, read once from the installed package, no build step.
 *
 * @module
 */

import { createServer } from "node:http";
import process from "node:process";
import { createAuth } from "@service-stack/auth";
import { toNodeHandler } from "@service-stack/auth/node";
import {
  createDemo,
  portFromEnv,
  portInUseMessage,
  readPackageClientModules,
} from "../shared/demo.mjs";

/** @type {(request: Request) => Response | Promise<Response>} */
let handle = () => new Response("Starting, try again in a moment.", { status: 503 });

// Builds each Web `Request` from the Host header and the target read as a path, so
// `//evil.example/x` stays a path on this host; writes every Set-Cookie on its own line.
const server = createServer(toNodeHandler((request) => handle(request)));

const port = portFromEnv(process.env);
server.on("error", (/** @type {NodeJS.ErrnoException} */ error) => {
  if (error.code !== "EADDRINUSE") throw error;
  console.error(portInUseMessage(port, "node examples/node/server.mjs"));
  process.exit(1);
});
server.listen(port, "127.0.0.1", async () => {
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  const demo = await createDemo({
    origin,
    env: process.env,
    runtime: `Node ${process.versions.node}`,
    clientModules: await readPackageClientModules(),
  });
  const auth = createAuth(demo.authConfig);
  const handleDemo = demo.handler(auth);
  handle = (request) => {
    const { pathname } = new URL(request.url);
    return pathname.startsWith("/auth/") ? auth.handlers.ALL(request) : handleDemo(request);
  };
  console.log(`listening on ${origin}`);
  console.log(`Open ${origin}/ in a browser.`);
});
