import express from "express";
import { createAuth } from "@service-stack/auth";
import { toNodeHandler } from "@service-stack/auth/node";

const auth = createAuth({ oauth: ["github"] });
const app = express();

app.use(express.json());
app.use("/auth", toNodeHandler(auth.handlers.ALL));

app.listen(Number(process.env.PORT ?? 3000), "127.0.0.1");
