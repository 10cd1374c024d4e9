/** "month", "3 months", "year". */
export function intervalLabel(interval: string, count: number): string {
  return count === 1 ? interval : `${count} ${interval}s`;
}

/** Upgrade if the new price is higher, downgrade if lower, otherwise change (user-side spec, 4). */
export function planChangeKind(currentPrice: number, nextPrice: number) {
  if (nextPrice > currentPrice) return "upgrade" as const;
  if (nextPrice < currentPrice) return "downgrade" as const;
  return "change" as const;
}

/** Success green, pending yellow, anything else red, shown capitalised. */
export function statusTone(status: string): "green" | "yellow" | "red" {
  return status === "success" || status === "credited"
    ? "green"
    : status === "pending"
      ? "yellow"
      : "red";
}

export function capitalise(value: string): string {
  return value ? `${value[0]?.toUpperCase()}${value.slice(1)}` : value;
}
