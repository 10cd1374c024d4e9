import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, csrfFor } from "../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../test/create-test-app.ts";
import { wavFile } from "../../test/multipart.ts";

const MB = 1024 * 1024;

/**
 * A 100 MB voice sample over a real socket, written in 256 KB chunks with backpressure, while
 * the process's memory is sampled. The upload goes through a stream pipeline to a temporary
 * file, so memory must not grow by anything near the file's size.
 */
describe("a 100 MB upload streams to disk", () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await adminSession(t)).token;
    await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(() => t?.close());

  it("stores it without holding it in memory", async () => {
    const total = 100 * MB - 64 * 1024;
    const header = wavFile(0);
    header.writeUInt32LE(total - 8, 4);
    header.writeUInt32LE(total - 44, 40);
    const csrf = await csrfFor(t);
    const boundary = "----twinlinebig";
    const preamble = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="voiceSample"; filename="long.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    );
    const epilogue = Buffer.from(`\r\n--${boundary}--\r\n`);
    const { port } = t.app.server.address() as AddressInfo;
    global.gc?.();
    const baseline = process.memoryUsage();
    let peak = 0;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(
        peak,
        now.heapUsed + now.arrayBuffers - (baseline.heapUsed + baseline.arrayBuffers),
      );
    }, 20);

    const chunk = Buffer.alloc(256 * 1024);
    const status = await new Promise<{ code: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/api/ai-training/voice-sample",
          headers: {
            "content-type": `multipart/form-data; boundary=${boundary}`,
            "content-length": preamble.length + total + epilogue.length,
            authorization: `Bearer ${admin}`,
            "csrf-token": csrf.token,
            cookie: `_csrf=${csrf.cookie}`,
          },
        },
        (res) => {
          let body = "";
          res.on("data", (d) => {
            body += d;
          });
          res.on("end", () => resolve({ code: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.write(preamble);
      req.write(header);
      let sent = header.length;
      const pump = () => {
        while (sent < total) {
          const size = Math.min(chunk.length, total - sent);
          sent += size;
          if (!req.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
            req.once("drain", pump);
            return;
          }
        }
        req.end(epilogue);
      };
      pump();
    });
    clearInterval(sampler);

    expect(status.code, status.body).toBe(200);
    expect(JSON.parse(status.body).data.size).toBe(total);
    // Far below the file's 100 MB: only chunks in flight are ever in memory.
    expect(peak).toBeLessThan(40 * MB);
  }, 120_000);
});
