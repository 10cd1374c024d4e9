// A tiny thread for worker-rpc.unit.test.ts, served as the real workers are.
import { setTimeout as sleep } from "node:timers/promises";
import { Transferred } from "./worker-rpc-protocol.ts";
import { serveWorkerRpc } from "./worker-rpc-serve.ts";

export type TestMethods = {
  echoAfter(request: { value: string; ms: number }): Promise<string>;
  refuse(request: { code: string; detail: string }): never;
  reverse(request: { bytes: ArrayBuffer }): Transferred<Uint8Array>;
  tell(request: { notice: string; data: unknown }): void;
  exit(request: { code: number }): never;
};

class DatabaseError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = "DatabaseError";
  }
}

const server = serveWorkerRpc<TestMethods>({
  async echoAfter({ value, ms }) {
    await sleep(ms);
    return value;
  },
  refuse({ code, detail }) {
    throw new DatabaseError("duplicate key value", code, detail);
  },
  reverse({ bytes }) {
    const reversed = new Uint8Array(bytes).reverse();
    return new Transferred(reversed, [reversed.buffer]);
  },
  tell({ notice, data }) {
    server.notify(notice, data);
  },
  exit({ code }) {
    process.exit(code);
  },
});
