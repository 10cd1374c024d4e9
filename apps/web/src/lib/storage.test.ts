import { afterEach, describe, expect, it, vi } from "vitest";
import { readStorage, removeStorage, STORAGE_KEYS, writeStorage } from "./storage";

describe("storage the browser refuses (decision 0085)", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    removeStorage(STORAGE_KEYS.userToken);
  });

  it("keeps the value in the page's memory while localStorage throws", () => {
    vi.spyOn(window, "localStorage", "get").mockImplementation(() => {
      throw new DOMException("Access is denied for this document.", "SecurityError");
    });
    writeStorage(STORAGE_KEYS.userToken, "token-in-memory");
    expect(readStorage(STORAGE_KEYS.userToken)).toBe("token-in-memory");
    removeStorage(STORAGE_KEYS.userToken);
    expect(readStorage(STORAGE_KEYS.userToken)).toBeNull();
  });

  it("uses localStorage itself when the browser allows it", () => {
    writeStorage(STORAGE_KEYS.userToken, "stored-token");
    expect(localStorage.getItem(STORAGE_KEYS.userToken)).toBe("stored-token");
  });
});
