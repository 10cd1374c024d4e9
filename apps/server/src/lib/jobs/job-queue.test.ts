import { adminJobsResponseSchema } from "@twinline/contracts";
import { afterAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp, testDatabaseKind } from "../../../test/create-test-app.ts";
import { createManualClock } from "../../../test/manual-clock.ts";
import { until } from "../../../test/until.ts";

const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps.reverse()) await app.close();
});

describe("a job that keeps failing is retried, then dead-lettered; the admin sees it and retries it", () => {
  const attempts: number[] = [];
  let healthy = false;
  let t: TestApp;
  let jobId: string;

  it("runs three attempts (a first and two retries), then lands in the dead-letter queue", async () => {
    t = await createTestApp({
      jobWorkers: false,
      billingSweeps: false,
      register: async (app) => {
        app.jobs.define(
          "test.flaky",
          async (data: { n: number }) => {
            attempts.push(data.n);
            if (!healthy) throw new Error(`card network down for ${data.n}`);
          },
          { retryLimit: 2, retryDelaySeconds: 0, retryBackoff: false },
        );
      },
    });
    apps.push(t);
    jobId = (await t.app.jobs.send("test.flaky", { n: 7 })) ?? "";
    expect(jobId).not.toBe("");

    for (let pass = 0; pass < 3; pass += 1) await t.app.jobs.runDue("test.flaky");
    expect(attempts).toEqual([7, 7, 7]);
    // Failed for good: nothing more runs.
    expect(await t.app.jobs.runDue("test.flaky")).toBe(0);
    expect(attempts).toHaveLength(3);
    expect(await t.app.jobs.board.get(jobId)).toMatchObject({
      state: "failed",
      retryCount: 2,
      retryLimit: 2,
      error: "card network down for 7",
    });
    // Every defined job has its line (the app's own too); this one failed for good.
    expect(await t.app.jobs.board.summary()).toContainEqual({
      queue: "test.flaky",
      queued: 0,
      running: 0,
      failed: 1,
      deadLettered: 1,
    });
  });

  it("GET /api/admin/jobs: admins only; lists the failed job with its error", async () => {
    const admin = (await adminSession(t)).token;
    const user = await signUp(t);
    expect((await call(t, "GET", "/api/admin/jobs")).statusCode).toBe(401);
    expect((await call(t, "GET", "/api/admin/jobs", { token: user.token })).statusCode).toBe(403);
    const bad = await call(t, "GET", "/api/admin/jobs", { token: admin, query: { state: "x" } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("state");

    const listed = await call(t, "GET", "/api/admin/jobs", {
      token: admin,
      query: { state: "failed" },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const page = adminJobsResponseSchema.parse(listed.json());
    expect(page.data).toEqual([
      expect.objectContaining({
        _id: jobId,
        queue: "test.flaky",
        state: "failed",
        error: "card network down for 7",
      }),
    ]);
    expect(page.pagination).toEqual({ total: 1, page: 1, limit: 20, pages: 1 });
    expect(page.queues).toContainEqual({
      queue: "test.flaky",
      queued: 0,
      running: 0,
      failed: 1,
      deadLettered: 1,
    });
    const queued = await call(t, "GET", "/api/admin/jobs", {
      token: admin,
      query: { state: "queued" },
    });
    expect(adminJobsResponseSchema.parse(queued.json()).data).toEqual([]);
  });

  it("POST /api/admin/jobs/{id}/retry: admins only; queues a failed job once, which then runs", async () => {
    const admin = (await adminSession(t)).token;
    const user = await signUp(t);
    const url = `/api/admin/jobs/${jobId}/retry`;
    expect((await call(t, "POST", url)).statusCode).toBe(401);
    expect((await call(t, "POST", url, { token: user.token })).statusCode).toBe(403);
    expect((await call(t, "POST", "/api/admin/jobs/nope/retry", { token: admin })).statusCode).toBe(
      400,
    );
    const unknown = await call(t, "POST", `/api/admin/jobs/${crypto.randomUUID()}/retry`, {
      token: admin,
    });
    expect(unknown.statusCode).toBe(404);

    const retried = await call(t, "POST", url, { token: admin });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ success: true, data: { _id: jobId, state: "retry" } });
    // Queued already: a second retry is a conflict, not a second run.
    expect((await call(t, "POST", url, { token: admin })).statusCode).toBe(409);

    healthy = true;
    expect(await t.app.jobs.runDue("test.flaky")).toBe(1);
    expect(attempts).toEqual([7, 7, 7, 7]);
    expect((await t.app.jobs.board.get(jobId))?.state).toBe("completed");
    expect((await call(t, "POST", url, { token: admin })).statusCode).toBe(409);
  });
});

describe("a job sent on demand", () => {
  it("is run by the instance's worker without anyone asking, once, and the app closes cleanly", async () => {
    const ran: string[] = [];
    const t = await createTestApp({
      billingSweeps: false,
      register: async (app) => {
        app.jobs.define("test.welcome-mail", async (data: { to: string }) => {
          ran.push(data.to);
        });
      },
    });
    const id = (await t.app.jobs.send("test.welcome-mail", { to: "fan@example.com" })) ?? "";
    await until(
      async () => (await t.app.jobs.board.get(id))?.state === "completed",
      "the worker to complete the job",
    );
    expect(ran).toEqual(["fan@example.com"]);
    await t.close();
  });
});

describe("a job is due as soon as it is sent", () => {
  it("a pass right after each send runs it, every time (PGlite's clock counts milliseconds)", async () => {
    const ran: number[] = [];
    const t = await createTestApp({
      jobWorkers: false,
      billingSweeps: false,
      register: async (app) => {
        app.jobs.define("test.at-once", async (data: { n: number }) => {
          ran.push(data.n);
        });
      },
    });
    apps.push(t);
    // A send and a fetch often fall in the same millisecond; each pass must still find its job.
    const missed: number[] = [];
    for (let n = 0; n < 200; n += 1) {
      await t.app.jobs.send("test.at-once", { n });
      if ((await t.app.jobs.runDue("test.at-once")) !== 1) missed.push(n);
    }
    expect(missed).toEqual([]);
    expect(ran).toEqual(Array.from({ length: 200 }, (_, n) => n));
  });
});

describe("a job whose completion the database fails to record", () => {
  it("crashes nothing (pg-boss sends it without awaiting): the job stays claimed, to run again", async () => {
    const ran: string[] = [];
    const t = await createTestApp({
      billingSweeps: false,
      register: async (app) => {
        app.jobs.define("test.flaky-completion", async (data: { to: string }) => {
          ran.push(data.to);
        });
      },
    });
    apps.push(t);
    // The connection breaks for the completion only (pg-boss's plans.completeJobs).
    const database = t.app.database;
    const target: { query: (text: string, values?: unknown[]) => Promise<unknown> } =
      database.kind === "pglite"
        ? (database.client as unknown as typeof target)
        : (database.pool as unknown as typeof target);
    const query = target.query.bind(target);
    let broken = 0;
    target.query = async (text, values) => {
      if (typeof text === "string" && text.includes("SET completed_on")) {
        broken += 1;
        throw new Error("Connection terminated unexpectedly");
      }
      return query(text, values);
    };
    const id = (await t.app.jobs.send("test.flaky-completion", { to: "fan@example.com" })) ?? "";
    await until(async () => broken > 0, "the worker to try to complete the job");
    target.query = query;
    expect(ran).toEqual(["fan@example.com"]);
    // Still claimed: its claim expires and pg-boss offers it again, as after a crash.
    expect((await t.app.jobs.board.get(id))?.state).toBe("active");
    // The server answers on: nothing was left unhandled.
    expect((await t.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
  });
});

describe.skipIf(testDatabaseKind() !== "postgres")("two instances on one PostgreSQL", () => {
  it("a scheduled job runs once per occurrence; each sent job runs once", async () => {
    const ticks: string[] = [];
    const sent: number[] = [];
    const start = Date.now();
    const register = async (app: TestApp["app"]) => {
      app.jobs.define(
        "test.every-minute",
        async (data: { at: string }) => {
          ticks.push(data.at);
          // Long enough for the other instance to look for it meanwhile.
          await new Promise((resolve) => setTimeout(resolve, 20));
        },
        { cron: "* * * * *" },
      );
      app.jobs.define("test.on-demand", async (data: { n: number }) => {
        sent.push(data.n);
      });
    };
    const clockA = createManualClock(start);
    const clockB = createManualClock(start);
    const a = await createTestApp({
      billingClock: clockA,
      billingSweeps: false,
      jobWorkers: false,
      register,
    });
    apps.push(a);
    const b = await createTestApp({
      sameDatabaseAs: a,
      billingClock: clockB,
      billingSweeps: false,
      jobWorkers: false,
      register,
    });
    apps.push(b);

    for (let minute = 0; minute < 3; minute += 1) {
      await Promise.all([clockA.advance(60_000), clockB.advance(60_000)]);
    }
    expect(ticks).toHaveLength(3);
    expect(new Set(ticks).size).toBe(3);

    for (let n = 0; n < 20; n += 1) await a.app.jobs.send("test.on-demand", { n });
    await Promise.all([
      a.app.jobs.runDue("test.on-demand"),
      b.app.jobs.runDue("test.on-demand"),
      b.app.jobs.runDue("test.on-demand"),
    ]);
    expect(sent.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, n) => n));
  });
});
