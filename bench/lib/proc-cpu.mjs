// CPU time from Linux's /proc (utime + stime of a process's or a thread's `stat`), in ms. Plain
// JavaScript so that both the tsx benches and the node scripts (start/main-thread-cpu.mjs) load it.
import { readFileSync } from "node:fs";

const MS_PER_TICK = 10; // CLK_TCK 100

/** The CPU ms a `/proc/.../stat` file reports (the command name may hold spaces: read after it). */
export function cpuMsOfStat(path) {
  const stat = readFileSync(path, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
}
