/**
 * Waits (up to about 5 s) for the server to catch up with something the test did, e.g. a
 * socket's close; fails naming what never happened.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
}
