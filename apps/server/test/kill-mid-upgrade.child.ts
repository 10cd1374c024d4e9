// A server process that dies mid-upgrade (plan-change-sweep.test.ts): the sandbox provider
// makes the change and charges its proration, then the process is killed with SIGKILL inside
// the transaction that records that invoice. The claim and the provider's invoice survive;
// nothing of the local record does.
import { join } from "node:path";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";

const { DATA_DIR, DATABASE_URL, USER_ID, PLAN_ID } = process.env;
if (!DATA_DIR || !USER_ID || !PLAN_ID)
  throw new Error("DATA_DIR, USER_ID and PLAN_ID are required");
const config = loadConfig({
  DATA_DIR,
  LOG_LEVEL: "silent",
  ...(DATABASE_URL ? { DATABASE_URL } : {}),
});
const app = await buildApp({ config, logger: false, webDistDir: join(DATA_DIR, "no-web-build") });
await app.ready();
app.billing.fulfilment.state.probe = (step) => {
  if (step === "payment-recorded") process.kill(process.pid, "SIGKILL");
};
await app.billing.subscriptions.upgrade({ id: USER_ID }, PLAN_ID);
// Not reached: the probe kills the process first.
process.exit(3);
