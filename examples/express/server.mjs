/**
 * The demo on Express 5 (Node 20+): body parsers first, as an Express app
 * has them, then `toNodeHandler` from `@service-stack/auth/node` mounted at
 * `/auth` for the auth handlers and, last, for the shared demo app (page,
 * browser client, mock OAuth provider).
 *
 * Run with the packages installed (`npm install express` and
 * `@service-stack/auth` as the README's Install or docs/develop.md says):
 * `node examples/express/server.mjs`.
 * `PORT` picks the port (default 8000, `0` for any free one); `AUTH_SECRET`
 * the secret (else a random one is generated at startup).
 *
 * @module
 */

import process from "node:process";
import express from "express";
import { createAuth } from "@service-stack/auth";
import { toNodeHandler } from "@service-stack/auth/node";
import {
  createDemo,
  portFromEnv,
  portInUseMessage,
  readPackageClientModules,
} from "../shared/demo.mjs";

const app = express();
app.disable("x-powered-by");
// The parsers read JSON and form bodies first; toNodeHandler rebuilds them from `req.body`.
app.use(express.json({ limit: "64kb" }));
app.use(express.urlencoded({ limit: "64kb" }));

/** @type {(request: Request) => Response | Promise<Response>} */
let handleAuth = () => new Response("Starting, try again in a moment.", { status: 503 });
/** @type {(request: Request) => Response | Promise<Response>} */
let handleDemo = handleAuth;

// Mounted at /auth: Express strips that from `req.url`; toNodeHandler reads `req.originalUrl`.
app.use("/auth", toNodeHandler((request) => handleAuth(request)));
app.use(toNodeHandler((request) => handleDemo(request)));

// Errors of the body parsers (too large, malformed) answered in the auth routes' JSON form,
// without echoing the input; anything else goes on to Express's own handler. Express knows an
// error handler by its four parameters.
app.use(
  /**
   * @param {{ status?: unknown }} error
   * @param {unknown} _req
   * @param {{ headersSent: boolean, status(code: number): any }} res
   * @param {(error: unknown) => void} next
   */
  function bodyParserErrors(error, _req, res, next) {
    const status = error?.status;
    if (typeof status !== "number" || status < 400 || status > 499 || res.headersSent) {
      return next(error);
    }
    res.status(status).set("Cache-Control", "no-store").json({
      error: "invalid_request",
      error_description: status === 413
        ? "The request body is too large; expected at most 64 KiB."
        : "The request body could not be read; expected valid JSON or a form.",
    });
  },
);

const port = portFromEnv(process.env);
// Express 5 hands a listen error to this callback too; the error handler below reports it.
const server = app.listen(port, "127.0.0.1", async (/** @type {unknown} */ error) => {
  if (error) return;
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  const demo = await createDemo({
    origin,
    env: process.env,
    runtime: `Express on Node ${process.versions.node}`,
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
  console.error(portInUseMessage(port, "node examples/express/server.mjs"));
  process.exit(1);
});
