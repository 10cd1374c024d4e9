/** The p-th percentile of `values` (nearest rank); NaN when there are none. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  );
}

/** Milliseconds to two decimals, as the tables print them. */
export const roundMs = (value: number) => Number(value.toFixed(2));

/**
 * Times `runs` sequential calls of `run` (latency, not throughput) after `warmups` untimed
 * ones; an answer other than 200 stops the bench, as its figure would mean nothing.
 */
export async function timeSequential(
  run: () => Promise<{ statusCode: number }>,
  runs: number,
  warmups = 5,
): Promise<number[]> {
  for (let i = 0; i < warmups; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const response = await run();
    times.push(performance.now() - started);
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
  }
  return times;
}

export interface RouteTimes {
  route: string;
  times: number[];
}

/** timeSequential over each route in turn, `runs` calls each. */
export async function timeRoutes(
  routes: Array<[route: string, run: () => Promise<{ statusCode: number }>]>,
  runs: number,
): Promise<RouteTimes[]> {
  const rows: RouteTimes[] = [];
  for (const [route, run] of routes) rows.push({ route, times: await timeSequential(run, runs) });
  return rows;
}

/** One table row per route: p50, p95 and the slowest call. */
export function printLatencies(rows: RouteTimes[]) {
  console.table(
    rows.map(({ route, times }) => ({
      route,
      "p50 ms": roundMs(percentile(times, 50)),
      "p95 ms": roundMs(percentile(times, 95)),
      "max ms": roundMs(Math.max(...times)),
    })),
  );
}
