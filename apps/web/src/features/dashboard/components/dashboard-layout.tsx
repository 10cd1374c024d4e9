import * as DialogPrimitive from "@radix-ui/react-dialog";
import { clsx } from "clsx";
import { LogOut, Menu, X } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link, NavLink, useNavigate } from "react-router";
import { Logo } from "@/components/ui/logo";
import { LowBalanceNotice } from "@/components/ui/low-balance-notice";
import { SOCIAL_LABELS, SocialIcon } from "@/components/ui/social-icon";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { useAuth, useCurrentUser } from "@/lib/auth/auth-provider";
import { configuredSocialLinks, useSettings } from "@/lib/settings";
import { DASHBOARD_NAV } from "../nav";

const navLinkClasses = ({ isActive }: { isActive: boolean }) =>
  clsx(
    "flex items-center gap-3 rounded-xl px-3 py-2.5 text-sm font-medium transition",
    isActive
      ? "bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-200"
      : "text-stone-700 hover:bg-stone-100 hover:text-stone-900 dark:text-stone-300 dark:hover:bg-white/5 dark:hover:text-white",
  );

function NavList({ onNavigate, onLogout }: { onNavigate?: () => void; onLogout: () => void }) {
  return (
    <ul className="space-y-1">
      {DASHBOARD_NAV.map(({ label, to, icon: Icon, end }) => (
        <li key={to}>
          <NavLink to={to} end={end} className={navLinkClasses} onClick={onNavigate}>
            <Icon aria-hidden="true" className="size-5 shrink-0" />
            {label}
          </NavLink>
        </li>
      ))}
      <li>
        <button
          type="button"
          onClick={onLogout}
          className="flex w-full items-center gap-3 rounded-xl px-3 py-2.5 text-sm font-medium text-stone-700 transition hover:bg-red-50 hover:text-red-700 dark:text-stone-300 dark:hover:bg-red-500/10 dark:hover:text-red-300"
        >
          <LogOut aria-hidden="true" className="size-5 shrink-0" />
          Logout
        </button>
      </li>
    </ul>
  );
}

function UserCard() {
  const user = useCurrentUser();
  const { settings } = useSettings();
  const initial = (user.name.trim()[0] ?? user.email[0] ?? "?").toUpperCase();
  return (
    <div className="space-y-2">
      <UserSummary name={user.name || user.email} initial={initial} credits={user.credits} />
      <LowBalanceNotice
        credits={user.credits}
        creditsPerMinute={settings.creditsPerMinute}
        compact
      />
    </div>
  );
}

function UserSummary({
  name,
  initial,
  credits,
}: {
  name: string;
  initial: string;
  credits: number;
}) {
  return (
    <div className="flex items-center gap-3 rounded-2xl border border-stone-200 p-3 dark:border-white/10">
      <span
        aria-hidden="true"
        className="flex size-10 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-orange-400 font-semibold text-white"
      >
        {initial}
      </span>
      <div className="min-w-0">
        <p className="truncate text-sm font-semibold text-stone-900 dark:text-white">{name}</p>
        <p className="truncate text-xs text-stone-500 dark:text-stone-400">{credits} credits</p>
      </div>
    </div>
  );
}

function SocialLinks() {
  const { settings } = useSettings();
  const links = configuredSocialLinks(settings);
  if (links.length === 0) return null;
  return (
    <ul aria-label="Social media" className="flex flex-wrap gap-2" data-testid="menu-social-links">
      {links.map(({ network, url }) => (
        <li key={network}>
          <a
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={SOCIAL_LABELS[network]}
            title={SOCIAL_LABELS[network]}
            className="flex size-10 items-center justify-center rounded-full border border-stone-200 text-stone-600 transition hover:border-brand-300 hover:bg-brand-50 hover:text-brand-600 dark:border-white/10 dark:text-stone-300 dark:hover:bg-white/5 dark:hover:text-brand-300"
          >
            <SocialIcon network={network} />
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * The dashboard frame: a sidebar from `lg` up; below it a top bar whose menu button opens the
 * same navigation, the social links and Logout in a panel (focus kept inside, Escape closes).
 */
export function DashboardLayout({ children }: { children: ReactNode }) {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);

  const doLogout = () => {
    setMenuOpen(false);
    logout();
    navigate("/", { replace: true });
  };

  return (
    <div className="min-h-dvh bg-stone-50 dark:bg-stone-950">
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-brand-600 px-4 py-2 font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>

      <aside
        aria-label="Dashboard"
        className="fixed inset-y-0 left-0 z-30 hidden w-64 flex-col border-r border-stone-200 bg-white px-4 py-5 lg:flex dark:border-white/10 dark:bg-stone-900"
      >
        <div className="flex items-center justify-between px-1">
          <Link to="/" aria-label="Twinline home" className="-m-1 rounded-lg p-1">
            <Logo />
          </Link>
          <ThemeToggle />
        </div>
        <nav aria-label="Dashboard navigation" className="mt-8 flex-1 overflow-y-auto">
          <NavList onLogout={doLogout} />
        </nav>
        <UserCard />
      </aside>

      <DialogPrimitive.Root open={menuOpen} onOpenChange={setMenuOpen}>
        <header className="sticky top-0 z-30 flex h-16 items-center justify-between gap-2 border-b border-stone-200 bg-white/90 px-3 backdrop-blur lg:hidden dark:border-white/10 dark:bg-stone-900/90">
          <Link to="/" aria-label="Twinline home" className="-m-1 rounded-lg p-1">
            <Logo />
          </Link>
          <div className="flex items-center gap-1">
            <ThemeToggle />
            <DialogPrimitive.Trigger
              aria-label="Open menu"
              className="inline-flex size-10 items-center justify-center rounded-full text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-white/10"
            >
              <Menu aria-hidden="true" className="size-6" />
            </DialogPrimitive.Trigger>
          </div>
        </header>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-stone-950/50 lg:hidden" />
          <DialogPrimitive.Content
            aria-describedby={undefined}
            data-testid="mobile-menu"
            className="fixed inset-y-0 right-0 z-50 flex w-[min(20rem,100vw)] flex-col overflow-y-auto bg-white px-4 py-4 shadow-2xl focus:outline-none lg:hidden dark:bg-stone-900"
          >
            <div className="flex items-center justify-between">
              <DialogPrimitive.Title className="px-1 font-display text-lg font-bold text-stone-900 dark:text-white">
                Menu
              </DialogPrimitive.Title>
              <DialogPrimitive.Close
                aria-label="Close menu"
                className="inline-flex size-10 items-center justify-center rounded-full text-stone-600 hover:bg-stone-100 dark:text-stone-300 dark:hover:bg-white/10"
              >
                <X aria-hidden="true" className="size-6" />
              </DialogPrimitive.Close>
            </div>
            <div className="mt-4">
              <UserCard />
            </div>
            <nav aria-label="Dashboard navigation" className="mt-4 flex-1">
              <NavList onNavigate={() => setMenuOpen(false)} onLogout={doLogout} />
            </nav>
            <div className="mt-6 border-t border-stone-200 pt-4 dark:border-white/10">
              <SocialLinks />
            </div>
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>

      <main id="main" tabIndex={-1} className="outline-none lg:pl-64">
        <div className="mx-auto w-full max-w-5xl px-3 py-6 sm:px-6 sm:py-8">{children}</div>
      </main>
    </div>
  );
}
