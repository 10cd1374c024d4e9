import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { signUp } from "../../test/accounts.ts";
import { createTestApp } from "../../test/create-test-app.ts";

// Issue 28 item 2: a trace endpoint that refuses the spans was silent; the operator now reads
// one warning in the log, without the endpoint's credentials or the receiver's answer.

const RECEIVER_SECRET = "sk-otlp-receiver-echo-0042";

let receiver: Server | undefined;
afterAll(
  () => new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve())),
);

describe("a failing OTLP endpoint", () => {
  it("is warned of once in the log (status and origin only), and the app still answers", async () => {
    let posts = 0;
    receiver = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        posts += 1;
        response
          .writeHead(401, { "content-type": "application/json" })
          .end(JSON.stringify({ error: `key ${RECEIVER_SECRET} refused` }));
      });
    });
    await new Promise<void>((resolve) => receiver?.listen(0, "127.0.0.1", resolve));
    const { port } = receiver.address() as AddressInfo;
    const lines: string[] = [];
    const t = await createTestApp({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://collector:hunter2-pass@127.0.0.1:${port}/` },
      logger: {
        level: "info",
        stream: new Writable({
          write(chunk, _encoding, done) {
            lines.push(String(chunk));
            done();
          },
        }),
      },
    });
    const session = await signUp(t);
    expect(session.token).toBeTruthy();
    // Closing flushes the batch: the export is refused.
    await t.close();
    expect(posts).toBeGreaterThan(0);
    const warnings = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => String(line.msg).startsWith("Traces could not be sent"));
    expect(warnings).toEqual([
      expect.objectContaining({
        level: 40,
        endpoint: `http://127.0.0.1:${port}`,
        reason: "HTTP 401",
        failedExports: 1,
      }),
    ]);
    const log = lines.join("");
    expect(log).not.toContain("hunter2-pass");
    expect(log).not.toContain(RECEIVER_SECRET);
  });
});
