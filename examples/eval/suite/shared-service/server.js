import { createServer } from "node:http";

// The port comes from the deployment; see the operations notes.
const port = Number(process.env.BILLING_PORT ?? 3000);

createServer((_req, res) => res.end("ok")).listen(port);
