/**
 * Forgets the oldest entries (in insertion order) of a Map or Set that grew past `limit`: the
 * bound of the process's small memories (verified tokens, fans without a device, sittings...).
 */
export function keepNewest(
  collection: Pick<Map<unknown, unknown> | Set<unknown>, "size" | "keys" | "delete">,
  limit: number,
): void {
  for (const oldest of collection.keys()) {
    if (collection.size <= limit) return;
    collection.delete(oldest);
  }
}
