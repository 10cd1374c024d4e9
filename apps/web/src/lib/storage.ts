/** Client-side storage keys of the spec (user-side section 3). */
export const STORAGE_KEYS = {
  userToken: "userToken",
  userData: "userData",
  adminToken: "adminToken",
  adminData: "adminData",
  theme: "theme",
} as const;

/** The keys a 401 answer clears, from local and session storage. */
export const AUTH_STORAGE_KEYS = [
  STORAGE_KEYS.userToken,
  STORAGE_KEYS.userData,
  STORAGE_KEYS.adminToken,
  STORAGE_KEYS.adminData,
] as const;

type Area = "local" | "session";

function area(which: Area): Storage | null {
  try {
    return which === "local" ? window.localStorage : window.sessionStorage;
  } catch {
    // Storage can be blocked (privacy settings, sandboxed frames).
    return null;
  }
}

export function readStorage(key: string, which: Area = "local"): string | null {
  try {
    return area(which)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string, which: Area = "local"): void {
  try {
    area(which)?.setItem(key, value);
  } catch {
    // Quota exceeded or storage blocked: the value just is not kept.
  }
}

export function removeStorage(key: string, which: Area = "local"): void {
  try {
    area(which)?.removeItem(key);
  } catch {
    // Nothing to do.
  }
}

/** The user's bearer token (local storage). */
export function getUserToken(): string | null {
  return readStorage(STORAGE_KEYS.userToken);
}

/** The admin's bearer token: local storage, falling back to session storage. */
export function getAdminToken(): string | null {
  return readStorage(STORAGE_KEYS.adminToken) ?? readStorage(STORAGE_KEYS.adminToken, "session");
}

/** Removes every stored token and user record, from local and session storage. */
export function clearAuthStorage(): void {
  for (const key of AUTH_STORAGE_KEYS) {
    removeStorage(key, "local");
    removeStorage(key, "session");
  }
}
