import { meAddress, type User } from "@twinline/contracts";
import { ApiError, answerReader, callAddress } from "../api-client";
import { getUserToken, readStorage, removeStorage, STORAGE_KEYS, writeStorage } from "../storage";

/**
 * The signed-in user's session (user-side spec, sections 3, 4 and 9).
 *
 * - The token lives in localStorage under `userToken`, the user object under `userData` (JSON).
 * - At start the user is read from storage, then refreshed from GET /api/auth/me; a 401 logs
 *   out, any other failure (server down, timeout) marks the start failed: the app shows its
 *   authentication error screen and keeps the token for the next try.
 * - `refreshUser` is skipped when called within 500 ms of the previous call.
 * - `fetchProfile` returns the stored user when called within 5000 ms of the previous fetch.
 * - `logout` clears the token and the user data; a 401 from any call (the API client clears the
 *   storage) ends the session through `handleUnauthorized`.
 */

export const USER_REFRESH_THROTTLE_MS = 500;
export const PROFILE_FETCH_CACHE_MS = 5000;
export const ME_PATH = meAddress.path;

export type SessionStatus = "anonymous" | "loading" | "authenticated";

export interface SessionState {
  /** `loading`: a token is stored but no user is known yet (the start-up check is running). */
  status: SessionStatus;
  user: User | null;
  /** The start-up refresh failed for a reason other than 401 (the authentication error screen). */
  startFailed?: boolean;
}

/** What sign-up, login, Google login and password reset answer. */
export interface SessionGrant {
  token: string;
  user: unknown;
}

type Loose = Record<string, unknown>;

/**
 * A user object from the server or storage, or null when it is not one. `id` is taken from
 * `_id` when absent (spec, section 3); missing optional fields get their defaults.
 */
export function normalizeUser(raw: unknown): User | null {
  if (!raw || typeof raw !== "object") return null;
  const source = raw as Loose;
  const id = typeof source.id === "string" && source.id ? source.id : source._id;
  if (typeof id !== "string" || !id) return null;
  if (typeof source.email !== "string") return null;
  const subscription = (source.subscription ?? {}) as Loose;
  return {
    ...(source as Partial<User>),
    _id: typeof source._id === "string" && source._id ? source._id : id,
    id,
    name: typeof source.name === "string" ? source.name : "",
    email: source.email,
    role: source.role === "admin" ? "admin" : "user",
    googleId: typeof source.googleId === "string" && source.googleId ? source.googleId : null,
    profileImage: typeof source.profileImage === "string" ? source.profileImage : null,
    credits: typeof source.credits === "number" ? source.credits : 0,
    subscription: {
      status:
        subscription.status === "active" ||
        subscription.status === "trialing" ||
        subscription.status === "canceled"
          ? subscription.status
          : "inactive",
      planId: typeof subscription.planId === "string" ? subscription.planId : null,
      planName: typeof subscription.planName === "string" ? subscription.planName : null,
      endDate: typeof subscription.endDate === "string" ? subscription.endDate : null,
    },
    createdAt: typeof source.createdAt === "string" ? source.createdAt : "",
    dateOfBirth: typeof source.dateOfBirth === "string" ? source.dateOfBirth : null,
  };
}

/** The user kept under `userData`, or null (absent or unreadable). */
export function readStoredUser(): User | null {
  const text = readStorage(STORAGE_KEYS.userData);
  if (!text) return null;
  try {
    return normalizeUser(JSON.parse(text));
  } catch {
    return null;
  }
}

function writeStoredUser(user: User): void {
  writeStorage(STORAGE_KEYS.userData, JSON.stringify(user));
}

/**
 * GET /api/auth/me's reader (the user under `data`, read by normalizeUser). Not the contract's zod
 * schema: a stored session starts on the landing page's first load, which carries no zod
 * (decision 0033).
 */
const meAnswer = answerReader((body) => normalizeUser((body as { data?: unknown } | null)?.data));

async function fetchMe(): Promise<User> {
  return callAddress(meAddress, meAnswer, { responseType: "json" });
}

interface SessionStoreOptions {
  /** The clock (tests). */
  now?: () => number;
  /** Loads the current user (tests); default GET /api/auth/me. */
  loadUser?: () => Promise<User>;
}

export class SessionStore {
  private state: SessionState;
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;
  private readonly loadUser: () => Promise<User>;
  private lastRefreshAt: number | null = null;
  private lastProfileFetchAt: number | null = null;
  private started: Promise<void> | null = null;
  /** Bumped on every sign-in and logout, so an answer to an older session is dropped. */
  private generation = 0;

  constructor(options: SessionStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.loadUser = options.loadUser ?? fetchMe;
    this.state = SessionStore.fromStorage();
  }

  private static fromStorage(): SessionState {
    if (!getUserToken()) return { status: "anonymous", user: null };
    const user = readStoredUser();
    return user ? { status: "authenticated", user } : { status: "loading", user: null };
  }

  getState = (): SessionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(next: SessionState): void {
    if (next.status === this.state.status && next.user === this.state.user) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  /**
   * Start-up: the stored user is already shown; refresh it from the server. A failure logs out.
   * Runs once per store; later calls return the same promise.
   */
  start(): Promise<void> {
    if (!this.started) {
      this.started = (async () => {
        if (!getUserToken()) {
          // A user record without a token is stale.
          removeStorage(STORAGE_KEYS.userData);
          this.set({ status: "anonymous", user: null });
          return;
        }
        try {
          await this.refreshUser({ force: true });
        } catch (error) {
          if (error instanceof ApiError && error.status === 401) this.logout();
          else {
            this.state = { ...this.state, startFailed: true };
            for (const listener of this.listeners) listener();
          }
        }
      })();
    }
    return this.started;
  }

  /** Stores the token and user of a successful sign-in, sign-up, Google login or reset. */
  signIn(grant: SessionGrant): User {
    const user = normalizeUser(grant.user);
    if (!grant.token || !user) throw new Error("The server sent an unexpected answer");
    this.generation += 1;
    writeStorage(STORAGE_KEYS.userToken, grant.token);
    writeStoredUser(user);
    this.lastProfileFetchAt = this.now();
    this.set({ status: "authenticated", user });
    return user;
  }

  /** Replaces the current user (e.g. after a profile update) in memory and in storage. */
  setUser(raw: unknown): void {
    const user = normalizeUser(raw);
    if (!user || !getUserToken()) return;
    writeStoredUser(user);
    this.set({ status: "authenticated", user });
  }

  /** Clears the token and the user data. */
  logout(): void {
    this.generation += 1;
    removeStorage(STORAGE_KEYS.userToken);
    removeStorage(STORAGE_KEYS.userData);
    this.lastProfileFetchAt = null;
    this.set({ status: "anonymous", user: null });
  }

  /** After a 401 the API client has cleared the storage; the session ends here too. */
  handleUnauthorized(): void {
    if (!getUserToken()) this.logout();
  }

  /**
   * The current user from the server: the stored one when the previous fetch was less than
   * 5000 ms ago (and `force` is not set), else GET /api/auth/me. The answer is stored.
   */
  async fetchProfile({ force = false }: { force?: boolean } = {}): Promise<User> {
    const stored = readStoredUser();
    const last = this.lastProfileFetchAt;
    if (!force && stored && last !== null && this.now() - last < PROFILE_FETCH_CACHE_MS) {
      return stored;
    }
    const generation = this.generation;
    this.lastProfileFetchAt = this.now();
    const user = await this.loadUser();
    // A logout or another sign-in happened meanwhile: this answer belongs to an ended session.
    if (generation === this.generation && getUserToken()) this.setUser(user);
    return user;
  }

  /**
   * Refreshes the current user from the server. Skipped (resolving to the current user) when
   * called within 500 ms of the previous call, unless `force` is set. Rejects on failure.
   */
  async refreshUser({ force = false }: { force?: boolean } = {}): Promise<User | null> {
    const now = this.now();
    const last = this.lastRefreshAt;
    if (!force && last !== null && now - last < USER_REFRESH_THROTTLE_MS) return this.state.user;
    this.lastRefreshAt = now;
    if (!getUserToken()) return null;
    return this.fetchProfile({ force });
  }
}
