// Preloaded (`node --import`) into a child process so its DNS answers come from STUB_DNS, a JSON
// object of host → addresses (or the string "throw"). The product's own lookup path runs unchanged:
// it imports node:dns's `lookup`, and syncBuiltinESMExports() makes that binding this stub.
import dns from "node:dns";
import { syncBuiltinESMExports } from "node:module";

const answers = JSON.parse(process.env.STUB_DNS ?? "{}");
const realLookup = dns.lookup;

dns.lookup = function stubLookup(hostname, options, callback) {
  const cb = typeof options === "function" ? options : callback;
  const opts = typeof options === "object" && options !== null ? options : {};
  const answer = answers[hostname];
  if (answer === undefined) return realLookup.call(dns, hostname, options, callback);
  if (answer === "throw") throw new TypeError(`stub resolver refuses ${hostname}`);
  const entries = answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  process.nextTick(() => (opts.all ? cb(null, entries) : cb(null, entries[0].address, entries[0].family)));
};
syncBuiltinESMExports();
