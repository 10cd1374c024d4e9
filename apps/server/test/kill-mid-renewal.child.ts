// A server process that dies mid-renewal (renewal-crash.test.ts): its renewal job is claimed,
// the sandbox renews the subscription and charges the invoice, then the process is killed with
// SIGKILL inside the transaction of the KILL_AT_EVENT-th event it delivers (1 by default): the
// provider's paid invoice and the claimed (active) job survive, and of the local record only
// the events delivered before that one.
import { join } from "node:path";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createManualClock } from "./manual-clock.ts";

const { DATA_DIR, DATABASE_URL, NOW, KILL_AT_EVENT } = process.env;
if (!DATA_DIR || !NOW) throw new Error("DATA_DIR and NOW are required");
const config = loadConfig({
  DATA_DIR,
  LOG_LEVEL: "silent",
  ...(DATABASE_URL ? { DATABASE_URL } : {}),
});
const clock = createManualClock(Number(NOW));
const app = await buildApp({
  config,
  logger: false,
  webDistDir: join(DATA_DIR, "no-web-build"),
  billingClock: clock,
});
let recorded = 0;
app.billing.fulfilment.state.probe = (step) => {
  if (step === "event-recorded" && ++recorded === Number(KILL_AT_EVENT ?? 1)) {
    process.kill(process.pid, "SIGKILL");
  }
};
// The renewal job's next occurrence (every five minutes) comes within this.
await clock.advance(5 * 60_000);
// Not reached: the probe kills the process first.
process.exit(3);
