/** The UTC day of a moment, yyyy-MM-dd: the one day key of usage counters, rollups and backups. */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/** The UTC month of a moment, yyyy-MM. */
export const utcMonth = (date: Date): string => date.toISOString().slice(0, 7);
