/** process.hrtime in ms: comparable across the processes of one machine (benchmarks). */
export const monotonicNow = () => Number(process.hrtime.bigint()) / 1e6;

export const sleep = (ms: number) =>
  ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
