import { describe, expect, it } from "vitest";
import { batches, EXPORT_BATCH } from "./transaction-exports.ts";

/** A list of `total` rows served a page of EXPORT_BATCH at a time, recording the pages asked. */
function listOf(total: number) {
  const asked: number[] = [];
  const page = async (n: number) => {
    asked.push(n);
    const start = (n - 1) * EXPORT_BATCH;
    return Array.from(
      { length: Math.max(0, Math.min(EXPORT_BATCH, total - start)) },
      (_, i) => start + i,
    );
  };
  return { asked, page };
}

async function exported(total: number) {
  const list = listOf(total);
  const rows: number[] = [];
  for await (const batch of batches(list.page)) rows.push(...batch);
  return { rows, asked: list.asked };
}

describe("an export read a batch at a time", () => {
  it("exports every row of a list exactly one batch long, with no empty batch after it", async () => {
    const { rows, asked } = await exported(EXPORT_BATCH);
    expect(rows).toHaveLength(EXPORT_BATCH);
    expect(asked).toEqual([1, 2]);
  });

  it("exports the one row past a batch, once, in order", async () => {
    const { rows, asked } = await exported(EXPORT_BATCH + 1);
    expect(rows).toEqual(Array.from({ length: EXPORT_BATCH + 1 }, (_, i) => i));
    expect(asked).toEqual([1, 2]);
  });

  it("stops after one page when the list is one row short of a batch, and exports nothing of none", async () => {
    expect((await exported(EXPORT_BATCH - 1)).asked).toEqual([1]);
    expect(await exported(0)).toEqual({ rows: [], asked: [1] });
  });
});
