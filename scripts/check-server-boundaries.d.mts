/** The module boundary problems under `modulesDir` (default apps/server/src/modules); [] when none. */
export function checkBoundaries(modulesDir?: string): string[];
