/**
 * Runs `pass` when kicked, one pass at a time: a kick during a pass asks for one more pass after
 * it (so nothing queued meanwhile waits for the next sweep). `idle` resolves once no pass runs.
 */
export function kickedPasses(pass: () => Promise<unknown>, onError: (error: unknown) => void) {
  let running: Promise<void> | null = null;
  let again = false;
  const kick = () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await pass();
      } while (again);
    })()
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  const idle = async () => {
    while (running) await running;
  };
  return { kick, idle, isRunning: () => running !== null };
}
