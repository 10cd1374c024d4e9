import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { sendCsvDownload } from "./csv-download.ts";

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** A server with one CSV download whose batches are `batches()`. */
async function serve(batches: () => AsyncIterable<{ n: number }[]>) {
  const app = Fastify({ logger: false });
  apps.push(app);
  app.get("/file", (request, reply) =>
    sendCsvDownload(request, reply, {
      name: "numbers",
      day: new Date("2026-02-28T23:59:59.999Z"),
      header: ["N", "Formula"],
      toRow: (row) => [row.n, row.n === 2 ? "=1+1" : null],
      batches: batches(),
    }),
  );
  return app;
}

describe("a CSV download", () => {
  it("is a dated file: a BOM, the header, then every batch's rows, each cell by the one rule", async () => {
    const app = await serve(async function* () {
      yield [{ n: 1 }, { n: 2 }];
      yield [];
      yield [{ n: 3 }];
    });
    const response = await app.inject({ method: "GET", url: "/file" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe(
      'attachment; filename="numbers-2026-02-28.csv"',
    );
    expect(response.body).toBe('\uFEFF"N","Formula"\r\n"1","N/A"\r\n"2","\'=1+1"\r\n"3","N/A"\r\n');
  });

  it("a query refused before the first row is an error answer, never a 200 cut short", async () => {
    const app = await serve(async function* () {
      yield* [];
      throw new Error("canceling statement due to statement timeout");
    });
    const response = await app.inject({ method: "GET", url: "/file" });
    expect(response.statusCode).toBe(500);
    expect(response.headers["content-type"]).not.toContain("text/csv");
  });

  it("takes the rows as a plain list too (one batch read already)", async () => {
    const app = Fastify({ logger: false });
    apps.push(app);
    app.get("/file", (request, reply) =>
      sendCsvDownload(request, reply, {
        name: "days",
        header: ["Day"],
        toRow: (day: string) => [day],
        batches: [["2026-01-01", "2026-01-02"]],
      }),
    );
    const response = await app.inject({ method: "GET", url: "/file" });
    expect(response.body).toBe('\uFEFF"Day"\r\n"2026-01-01"\r\n"2026-01-02"\r\n');
  });
});
