/** PostgreSQL's unique_violation, however the driver wraps it. */
export function isUniqueViolation(error: unknown): boolean {
  for (
    let current = error as { code?: string; cause?: unknown } | undefined, depth = 0;
    current && depth < 4;
    depth++
  ) {
    if (current.code === "23505") return true;
    current = current.cause as typeof current;
  }
  return false;
}
