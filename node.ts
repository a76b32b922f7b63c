/**
 * Node adapter for `@service-stack/auth`: serves the Web handlers from
 * `node:http`, Express and Connect. Typed structurally, so it needs neither
 * `@types/node` nor any `node:` import.
 *
 * @example Express
 * ```ts ignore
 * import express from "express";
 * import { createAuth } from "@service-stack/auth";
 * import { toNodeHandler } from "@service-stack/auth/node";
 *
 * const auth = createAuth({ oauth: ["github"] }); // secret from AUTH_SECRET
 * const app = express();
 * app.use("/auth", toNodeHandler(auth.handlers.ALL));
 * app.listen(3000);
 * ```
 *
 * @module
 */

export { toNodeHandler } from "./src/node/to_node_handler.ts";
export type {
  NodeHandler,
  NodeIncomingMessage,
  NodeRequestHeaders,
  NodeServerResponse,
  NodeSocketLike,
  ToNodeHandlerOptions,
} from "./src/node/types.ts";
