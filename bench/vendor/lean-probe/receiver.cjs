// Vendored verbatim from receiver.cjs in the shared workspace's bench directory (outside this
// repository): the 204 receiver of the lean batch probe (prototype-batch.mjs beside it;
// bench/lean-probe.ts). Keep it as it is, the anchor's own receiver; only this header was added.
const http = require("node:http");
const port = +process.argv[2] || 18080;
let n = 0;
const srv = http.createServer((req, res) => {
  let len = 0;
  req.on("data", (c) => (len += c.length));
  req.on("end", () => { n++; res.statusCode = 204; res.end(); });
});
srv.keepAliveTimeout = 60000;
srv.listen(port, "127.0.0.1", () => console.log("receiver listening", port, "pid", process.pid));
process.on("SIGTERM", () => { console.log("received", n); process.exit(0); });
