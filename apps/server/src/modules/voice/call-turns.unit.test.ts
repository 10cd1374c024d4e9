import { describe, expect, it } from "vitest";
import type { HistoryMessage } from "../chat/prompt.ts";
import { type CallTurnStore, DatabaseCallTurns } from "./call-turns.ts";

type Row = HistoryMessage & { id: string };

/** A store whose writes wait until `release` (a busy database), and whose rows can be cleared. */
function slowStore() {
  const rows: Row[] = [];
  const waiting: Array<() => void> = [];
  const store: CallTurnStore = {
    async addCallTurn(input) {
      await new Promise<void>((resolve) => waiting.push(resolve));
      rows.push({ id: input.id ?? "no id", sender: input.sender, content: input.content });
    },
    async recentHistory() {
      return rows.map((row) => ({ ...row }));
    },
  };
  return {
    store,
    rows,
    /** Lets the oldest waiting write through; resolves once it is stored. */
    async release() {
      while (waiting.length === 0) await new Promise((resolve) => setImmediate(resolve));
      waiting.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

const call = { id: "call-1", userId: "fan-1" };

describe("DatabaseCallTurns: turns written off the reply's way", () => {
  it("the next history has the turns still on their way, once each, in order", async () => {
    const db = slowStore();
    const turns = new DatabaseCallTurns(db.store, call);
    const fan = turns.record({ sender: "user", content: "Hello" });
    const persona = turns.record({ sender: "ai", content: "Hi there", interrupted: true });
    // Nothing stored yet: the history has both, with the ids they are stored under.
    const before = await turns.history();
    expect(before.map((turn) => [turn.sender, turn.content])).toEqual([
      ["user", "Hello"],
      ["ai", "Hi there (interrupted)"],
    ]);
    // Written one after the other: the persona's turn waits for the fan's.
    await db.release();
    await fan;
    expect(db.rows.map((row) => row.content)).toEqual(["Hello"]);
    expect((await turns.history()).map((turn) => turn.id)).toEqual(before.map((turn) => turn.id));
    await db.release();
    await persona;
    expect(db.rows.map((row) => row.id)).toEqual(before.map((turn) => turn.id));
    expect((await turns.history()).map((turn) => turn.id)).toEqual(before.map((turn) => turn.id));
  });

  it("a stored turn the fan cleared meanwhile stays out of the next history", async () => {
    const db = slowStore();
    const turns = new DatabaseCallTurns(db.store, call);
    const fan = turns.record({ sender: "user", content: "Forget this" });
    await db.release();
    await fan;
    db.rows.splice(0);
    expect(await turns.history()).toEqual([]);
  });

  it("finish waits for the writes: a call whose turns are on their way gets no marker", async () => {
    const db = slowStore();
    const turns = new DatabaseCallTurns(db.store, call);
    void turns.record({ sender: "user", content: "Hello" });
    const finished = turns.finish();
    await db.release();
    await finished;
    expect(db.rows.map((row) => row.content)).toEqual(["Hello"]);
  });
});
