import { type Admin, routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api-client";
import {
  getAdminToken,
  readStorage,
  removeStorage,
  STORAGE_KEYS,
  writeStorage,
} from "@/lib/storage";

/**
 * The admin session in the browser (admin-side spec, sections 3 and 6): `adminToken` and
 * `adminData` in local storage, the token also in session storage.
 */
export function storeAdminSession(token: string, admin?: Admin): void {
  writeStorage(STORAGE_KEYS.adminToken, token);
  writeStorage(STORAGE_KEYS.adminToken, token, "session");
  if (admin) writeStorage(STORAGE_KEYS.adminData, JSON.stringify(admin));
}

/** The stored admin record, or null when none or unreadable. */
export function readAdminData(): Admin | null {
  const raw = readStorage(STORAGE_KEYS.adminData);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as unknown;
    if (value && typeof value === "object" && "email" in value) return value as Admin;
  } catch {
    // Corrupt value: treated as absent.
  }
  return null;
}

/** Removes the admin token and record from both storages (a failed check, a 401). */
export function clearAdminSession(): void {
  for (const key of [STORAGE_KEYS.adminToken, STORAGE_KEYS.adminData]) {
    removeStorage(key, "local");
    removeStorage(key, "session");
  }
}

/**
 * Logout: the server ends the admin token (POST /api/admin/logout, fire and forget: the token is
 * read first), then the admin tokens and the whole session storage go (admin-side spec, "Layout").
 */
export function logoutAdmin(): void {
  const token = getAdminToken();
  if (token) {
    void callRoute(routes.adminSession.logout, {
      headers: { Authorization: `Bearer ${token}` },
    }).catch(() => {});
  }
  clearAdminSession();
  try {
    window.sessionStorage.clear();
  } catch {
    // Storage blocked: nothing was kept there either.
  }
}
