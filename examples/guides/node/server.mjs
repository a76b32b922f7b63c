import { createServer } from "node:http";
import { createAuth } from "@service-stack/auth";
import { toNodeHandler } from "@service-stack/auth/node";

const auth = createAuth({ oauth: ["github"] });
const handleAuth = toNodeHandler(auth.handlers.ALL);

createServer((req, res) => {
  if (req.url?.startsWith("/auth/")) return handleAuth(req, res);
  res.writeHead(404).end();
}).listen(Number(process.env.PORT ?? 3000), "127.0.0.1");
