import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { startModuleWorker } from "./module-worker.ts";
import type { TestMethods } from "./worker-rpc.test-worker.ts";
import { connectWorkerRpc, type WorkerRpc } from "./worker-rpc.ts";

// A real thread (worker-rpc.test-worker.ts), started the way the server starts its own.
describe("a worker thread's calls", () => {
  const open: WorkerRpc<TestMethods>[] = [];
  const failures: Error[] = [];
  const notices: Array<[string, unknown]> = [];
  const connect = async () => {
    const rpc = connectWorkerRpc<TestMethods>(
      startModuleWorker("worker-rpc-test-worker", "lib/worker-rpc.test-worker"),
      {
        stopped: (cause) =>
          typeof cause === "number" ? new Error(`The test thread exited (${cause})`) : cause,
        onFailure: (error) => failures.push(error),
        onNotice: (notice, data) => notices.push([notice, data]),
      },
    );
    open.push(rpc);
    await rpc.ready;
    return rpc;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((rpc) => rpc.close()));
    failures.length = 0;
    notices.length = 0;
  });

  it("settles each call with its own answer when the answers come out of order", async () => {
    const rpc = await connect();
    const slow = rpc.call("echoAfter", { value: "slow", ms: 200 });
    const fast = rpc.call("echoAfter", { value: "fast", ms: 0 });
    expect(rpc.pendingCalls()).toBe(2);
    const order: string[] = [];
    await Promise.all([slow, fast].map((call) => call.then((value) => order.push(value))));
    expect(order).toEqual(["fast", "slow"]);
    expect(rpc.pendingCalls()).toBe(0);
  });

  it("rejects with the thrown error's name, message and own fields (code, detail)", async () => {
    const rpc = await connect();
    const refused = rpc.call("refuse", { code: "23505", detail: "Key (id)=(1) already exists." });
    await expect(refused).rejects.toThrow("duplicate key value");
    await expect(refused).rejects.toMatchObject({
      name: "DatabaseError",
      code: "23505",
      detail: "Key (id)=(1) already exists.",
    });
    // The thread goes on serving.
    await expect(rpc.call("echoAfter", { value: "still here", ms: 0 })).resolves.toBe("still here");
  });

  it("rejects every pending call when the thread exits, and any later call at once", async () => {
    const rpc = await connect();
    const waiting = [
      rpc.call("echoAfter", { value: "a", ms: 5_000 }),
      rpc.call("echoAfter", { value: "b", ms: 5_000 }),
    ];
    const exiting = rpc.call("exit", { code: 3 });
    for (const call of [...waiting, exiting]) {
      await expect(call).rejects.toThrow("The test thread exited (3)");
    }
    expect(rpc.pendingCalls()).toBe(0);
    expect(failures.map((error) => error.message)).toEqual(["The test thread exited (3)"]);
    const later = rpc.call("echoAfter", { value: "too late", ms: 0 });
    expect(rpc.pendingCalls()).toBe(0);
    await expect(later).rejects.toThrow("The test thread exited (3)");
  });

  it("drops an aborted call: it rejects with the reason and its late answer is ignored", async () => {
    const rpc = await connect();
    const controller = new AbortController();
    const aborted = rpc.call("echoAfter", { value: "late", ms: 50 }, { signal: controller.signal });
    controller.abort(new Error("the caller hung up"));
    await expect(aborted).rejects.toThrow("the caller hung up");
    expect(rpc.pendingCalls()).toBe(0);
    // Answered after the aborted call's late answer came back.
    await expect(rpc.call("echoAfter", { value: "next", ms: 150 })).resolves.toBe("next");
    expect(rpc.pendingCalls()).toBe(0);
    const already = rpc.call(
      "echoAfter",
      { value: "never sent", ms: 0 },
      { signal: controller.signal },
    );
    await expect(already).rejects.toThrow("the caller hung up");
    expect(rpc.pendingCalls()).toBe(0);
  });

  it("moves a transferred ArrayBuffer to the thread and a transferred answer back", async () => {
    const rpc = await connect();
    const bytes = new Uint8Array([1, 2, 3, 4]).buffer;
    const reversed = await rpc.call("reverse", { bytes }, { transfer: [bytes] });
    expect(bytes.byteLength).toBe(0);
    expect([...reversed]).toEqual([4, 3, 2, 1]);
  });

  it("passes on what the thread says unasked, and reports no failure when closed", async () => {
    const rpc = await connect();
    await rpc.call("tell", { notice: "maintenance-failed", data: { message: "disk full" } });
    expect(notices).toEqual([["maintenance-failed", { message: "disk full" }]]);
    await rpc.close();
    await expect(rpc.call("echoAfter", { value: "closed", ms: 0 })).rejects.toThrow(
      /The test thread exited/,
    );
    expect(failures).toEqual([]);
  });

  it("rejects `ready` and the calls already sent when the thread fails before it serves", async () => {
    const rpc = connectWorkerRpc<TestMethods>(
      new Worker("throw new Error('no database here')", { eval: true }),
      {
        stopped: (cause, starting) =>
          new Error(`${starting ? "failed to start" : "stopped"}: ${String(cause)}`),
        onFailure: (error) => failures.push(error),
      },
    );
    open.push(rpc);
    const early = rpc.call("echoAfter", { value: "early", ms: 0 });
    await expect(rpc.ready).rejects.toThrow("failed to start: Error: no database here");
    await expect(early).rejects.toThrow("failed to start: Error: no database here");
    // The caller learns of it from `ready`, not as a failure of a thread that was serving.
    expect(failures).toEqual([]);
  });
});
