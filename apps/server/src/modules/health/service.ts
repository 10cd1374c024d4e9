import type { HealthResponse } from "@twinline/contracts";
import { type Database, type DatabaseKind, pingDatabase } from "../../db/client.ts";

// A load balancer polls this; an unresponsive database must answer "down", not hang the probe.
const PING_TIMEOUT_MS = 3_000;

export async function checkHealth(
  db: Database,
  kind: DatabaseKind,
): Promise<HealthResponse["database"]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("database ping timed out")), PING_TIMEOUT_MS);
  });
  try {
    await Promise.race([pingDatabase(db), timeout]);
    return { status: "up", kind };
  } catch {
    return { status: "down", kind };
  } finally {
    clearTimeout(timer);
  }
}
