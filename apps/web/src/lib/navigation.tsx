import { type AnchorHTMLAttributes, createContext, type MouseEvent, useContext } from "react";

/**
 * In-app navigation without importing the router (decision 0033). The landing page renders before
 * react-router is loaded: there, navigating loads the router and then goes; under the router,
 * RootLayout provides the router's own navigate. Screens that can show on the landing page (the
 * landing sections, the login modal) navigate with these; every other screen uses react-router.
 */
export type AppNavigate = (to: string, options?: { replace?: boolean }) => void;

const NavigationContext = createContext<AppNavigate | null>(null);

export const NavigationProvider = NavigationContext.Provider;

export function useAppNavigate(): AppNavigate {
  const navigate = useContext(NavigationContext);
  if (!navigate) throw new Error("useAppNavigate must be used inside <NavigationProvider>");
  return navigate;
}

function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
}

interface AppLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  /** An in-app path, e.g. "/dashboard" or "/auth?mode=signup". */
  to: string;
}

/** A link to an in-app path: a real <a href> (new tab, copy link) that navigates in the page. */
export function AppLink({ to, onClick, target, ...props }: AppLinkProps) {
  const navigate = useAppNavigate();
  return (
    <a
      {...props}
      href={to}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || !isPlainClick(event) || (target && target !== "_self")) {
          return;
        }
        event.preventDefault();
        // Like react-router's Link: a link to the page already shown replaces the entry.
        const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
        navigate(to, { replace: to === here });
      }}
    />
  );
}
