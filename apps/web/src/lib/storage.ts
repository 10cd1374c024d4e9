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

/**
 * Where values go when the browser refuses its storage: the page's memory, for as long as the page
 * lives. The embed frame on another site may have no storage at all (third-party storage blocked:
 * decision 0085); the session the sign-in popup hands it must still last while the frame is open.
 */
const memory: Record<Area, Map<string, string>> = { local: new Map(), session: new Map() };

export function readStorage(key: string, which: Area = "local"): string | null {
  try {
    const storage = area(which);
    if (storage) return storage.getItem(key);
  } catch {
    // Blocked: the page's memory below.
  }
  return memory[which].get(key) ?? null;
}

export function writeStorage(key: string, value: string, which: Area = "local"): void {
  try {
    const storage = area(which);
    if (storage) {
      storage.setItem(key, value);
      memory[which].delete(key);
      return;
    }
  } catch {
    // Quota exceeded or storage blocked: kept in the page's memory instead.
  }
  memory[which].set(key, value);
}

export function removeStorage(key: string, which: Area = "local"): void {
  memory[which].delete(key);
  try {
    area(which)?.removeItem(key);
  } catch {
    // Nothing more to do.
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
