import { useQueryClient } from "@tanstack/react-query";
import { logoutAddress, type User } from "@twinline/contracts";
import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from "react";
import { answerReader, callAddress, onUnauthorized } from "../api-client";
import { SETTINGS_QUERY_KEY } from "../settings";
import { getUserToken, STORAGE_KEYS } from "../storage";
import { type SessionGrant, type SessionStatus, SessionStore } from "./session-store";

const SessionContext = createContext<SessionStore | null>(null);

interface AuthProviderProps {
  children: ReactNode;
  /** Tests pass their own store. */
  store?: SessionStore;
}

/**
 * Holds the user's session for the whole app: starts it (stored user, then GET /api/auth/me),
 * ends it on any 401 and when another tab logs out, and drops the user's cached queries on logout.
 */
export function AuthProvider({ children, store: given }: AuthProviderProps) {
  const [store] = useState(() => given ?? new SessionStore());
  const queryClient = useQueryClient();

  useEffect(() => {
    void store.start();
  }, [store]);

  useEffect(() => onUnauthorized(() => store.handleUnauthorized()), [store]);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === STORAGE_KEYS.userToken) {
        if (!event.newValue) store.handleUnauthorized();
      }
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, [store]);

  // Whatever the previous user loaded (credits, chats, ...) must not be seen by the next one.
  useEffect(() => {
    let previous = store.getState().status;
    return store.subscribe(() => {
      const { status } = store.getState();
      if (status === "anonymous" && previous !== "anonymous") {
        queryClient.removeQueries({
          predicate: (query) => query.queryKey[0] !== SETTINGS_QUERY_KEY[0],
        });
      }
      previous = status;
    });
  }, [store, queryClient]);

  return <SessionContext.Provider value={store}>{children}</SessionContext.Provider>;
}

function useSessionStore(): SessionStore {
  const store = useContext(SessionContext);
  if (!store) throw new Error("useAuth must be used inside <AuthProvider>");
  return store;
}

export interface AuthState {
  status: SessionStatus;
  /** The start-up refresh failed for a reason other than 401. */
  startFailed: boolean;
  /** The signed-in user (from storage first, then from the server), or null. */
  user: User | null;
  isAuthenticated: boolean;
  /** Stores the token and user of a sign-in, sign-up, Google login or password reset. */
  signIn: (grant: SessionGrant) => User;
  logout: () => void;
  /** Replaces the stored user, e.g. with the answer of a profile update. */
  setUser: (user: unknown) => void;
  /** Re-reads the user from the server (500 ms skip, 5000 ms cache unless `force`). */
  refreshUser: (options?: { force?: boolean }) => Promise<User | null>;
}

/**
 * Asks the server to end the token (POST /api/auth/logout, decision 0003), fire and forget: the
 * local session ends at once whatever the answer, so no answer is read (and no schema parsed:
 * this module is on the landing page, which stays free of zod, decision 0033: the route's
 * zod-free address). The token is read now, before it is cleared.
 */
const ignoredAnswer = answerReader((body) => body);

function endTokenOnServer(): void {
  const token = getUserToken();
  if (!token) return;
  void callAddress(logoutAddress, ignoredAnswer, {
    headers: { Authorization: `Bearer ${token}` },
  }).catch(() => {});
}

/** The session: the current user and the calls that change it. */
export function useAuth(): AuthState {
  const store = useSessionStore();
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  // The calls keep their identity for the store's lifetime: safe in effect dependencies.
  const actions = useMemo(
    () => ({
      signIn: (grant: SessionGrant) => store.signIn(grant),
      logout: () => {
        endTokenOnServer();
        store.logout();
      },
      setUser: (user: unknown) => store.setUser(user),
      refreshUser: (options?: { force?: boolean }) => store.refreshUser(options),
    }),
    [store],
  );
  return useMemo(
    () => ({
      status: state.status,
      startFailed: state.startFailed === true,
      user: state.user,
      isAuthenticated: state.status === "authenticated",
      ...actions,
    }),
    [actions, state],
  );
}

/** The signed-in user; only for screens behind the dashboard guard, which never render without one. */
export function useCurrentUser(): User {
  const { user } = useAuth();
  if (!user) throw new Error("useCurrentUser needs a signed-in user");
  return user;
}
