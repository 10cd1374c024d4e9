import * as Dialog from "@radix-ui/react-dialog";
import { clsx } from "clsx";
import { KeyRound, LogOut, Menu, PanelLeftClose, PanelLeftOpen, X } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { Link, NavLink, Outlet, useLocation } from "react-router";
import { LogoMark } from "@/components/ui/logo";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { useFocusReturn } from "@/components/ui/use-focus-return";
import { useSidebar } from "../hooks/use-sidebar";
import { ADMIN_NAV_ITEMS } from "./nav-items";

export interface AdminLayoutProps {
  /** The signed-in admin, shown in the sidebar. */
  admin?: { name?: string; email?: string } | null;
  onLogout: () => void;
  /** The Change Password dialog, opened from the header. */
  renderChangePassword: (props: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
  }) => ReactNode;
}

const headerButton =
  "inline-flex h-10 shrink-0 items-center justify-center gap-2 rounded-full px-2.5 text-sm font-medium text-stone-700 transition hover:bg-stone-100 hover:text-stone-900 dark:text-stone-200 dark:hover:bg-white/10 dark:hover:text-white";

function SidebarNav({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  return (
    <nav aria-label="Admin" className="flex-1 overflow-y-auto px-3 py-4">
      <ul className="space-y-1">
        {ADMIN_NAV_ITEMS.map(({ label, to, icon: Icon }) => (
          <li key={to}>
            <NavLink
              to={to}
              onClick={onNavigate}
              title={collapsed ? label : undefined}
              aria-label={collapsed ? label : undefined}
              className={({ isActive }) =>
                clsx(
                  "flex h-10 items-center gap-3 rounded-xl text-sm font-medium transition",
                  collapsed ? "justify-center px-0" : "px-3",
                  isActive
                    ? "bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-200"
                    : "text-stone-600 hover:bg-stone-100 hover:text-stone-900 dark:text-stone-300 dark:hover:bg-white/5 dark:hover:text-white",
                )
              }
            >
              <Icon aria-hidden="true" className="size-5 shrink-0" />
              {!collapsed && <span className="truncate">{label}</span>}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function SidebarBrand({ collapsed }: { collapsed: boolean }) {
  return (
    <Link
      to="/admin/users"
      className={clsx(
        "flex h-16 shrink-0 items-center gap-2",
        collapsed ? "justify-center" : "px-5",
      )}
    >
      <LogoMark />
      {!collapsed && (
        <span className="font-display text-lg font-extrabold tracking-tight text-stone-900 dark:text-white">
          Twinline <span className="font-semibold text-brand-600 dark:text-brand-400">Admin</span>
        </span>
      )}
    </Link>
  );
}

function SidebarAccount({ admin }: Pick<AdminLayoutProps, "admin">) {
  if (!admin?.email) return null;
  return (
    <div className="border-t border-stone-200 px-5 py-4 dark:border-white/10">
      <p className="truncate text-sm font-semibold text-stone-900 dark:text-white">
        {admin.name || "Admin"}
      </p>
      <p className="truncate text-xs text-stone-500 dark:text-stone-400">{admin.email}</p>
    </div>
  );
}

/**
 * The admin layout (admin-side spec, "Layout"): a collapsible sidebar (w-64, remembered; a drawer
 * that closes by itself under 768 px), a header with the theme toggle, Change Password and Logout.
 */
export function AdminLayout({ admin, onLogout, renderChangePassword }: AdminLayoutProps) {
  const sidebar = useSidebar();
  const location = useLocation();
  const [passwordOpen, setPasswordOpen] = useState(false);
  // The drawer opens from the header's own button, not a Radix Trigger.
  const drawerFocusReturn = useFocusReturn();
  const collapsed = !sidebar.isMobile && !sidebar.open;
  const { isMobile, setOpen } = sidebar;

  // The drawer closes after navigating on a narrow screen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation
  useEffect(() => {
    if (isMobile) setOpen(false);
  }, [location.pathname]);

  return (
    <div className="flex min-h-dvh bg-stone-50 dark:bg-stone-950">
      {!sidebar.isMobile && (
        <aside
          data-testid="admin-sidebar"
          data-state={sidebar.open ? "expanded" : "collapsed"}
          className={clsx(
            "sticky top-0 flex h-dvh shrink-0 flex-col border-r border-stone-200 bg-white transition-[width] duration-200 dark:border-white/10 dark:bg-stone-900",
            sidebar.open ? "w-64" : "w-16",
          )}
        >
          <SidebarBrand collapsed={collapsed} />
          <SidebarNav collapsed={collapsed} />
          {!collapsed && <SidebarAccount admin={admin} />}
        </aside>
      )}
      {sidebar.isMobile && (
        <Dialog.Root open={sidebar.open} onOpenChange={sidebar.setOpen}>
          <Dialog.Portal>
            <Dialog.Overlay className="fixed inset-0 z-40 bg-stone-950/50 backdrop-blur-sm" />
            <Dialog.Content
              {...drawerFocusReturn}
              data-testid="admin-sidebar"
              data-state-sidebar="drawer"
              aria-describedby={undefined}
              className="fixed inset-y-0 left-0 z-50 flex w-64 max-w-[85vw] flex-col border-r border-stone-200 bg-white shadow-2xl dark:border-white/10 dark:bg-stone-900"
            >
              <Dialog.Title className="sr-only">Admin menu</Dialog.Title>
              <div className="flex items-center justify-between pr-3">
                <SidebarBrand collapsed={false} />
                <Dialog.Close aria-label="Close menu" className={headerButton}>
                  <X aria-hidden="true" className="size-5" />
                </Dialog.Close>
              </div>
              <SidebarNav collapsed={false} onNavigate={() => sidebar.setOpen(false)} />
              <SidebarAccount admin={admin} />
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      )}

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-1 border-b border-stone-200 bg-white/90 px-2 backdrop-blur sm:px-4 dark:border-white/10 dark:bg-stone-900/90">
          <button
            type="button"
            onClick={sidebar.toggle}
            aria-label={
              sidebar.isMobile ? "Open menu" : sidebar.open ? "Collapse sidebar" : "Expand sidebar"
            }
            aria-expanded={sidebar.open}
            className={headerButton}
          >
            {sidebar.isMobile ? (
              <Menu aria-hidden="true" className="size-5" />
            ) : sidebar.open ? (
              <PanelLeftClose aria-hidden="true" className="size-5" />
            ) : (
              <PanelLeftOpen aria-hidden="true" className="size-5" />
            )}
          </button>
          <span className="ml-1 truncate font-display text-base font-bold text-stone-900 dark:text-white">
            Admin Panel
          </span>
          <div className="ml-auto flex items-center gap-1">
            <ThemeToggle />
            <button
              type="button"
              onClick={() => setPasswordOpen(true)}
              className={headerButton}
              aria-label="Change Password"
              title="Change Password"
            >
              <KeyRound aria-hidden="true" className="size-5" />
              <span className="hidden lg:inline">Change Password</span>
            </button>
            <button
              type="button"
              onClick={onLogout}
              className={headerButton}
              aria-label="Logout"
              title="Logout"
            >
              <LogOut aria-hidden="true" className="size-5" />
              <span className="hidden lg:inline">Logout</span>
            </button>
          </div>
        </header>
        <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8">
          <Outlet />
        </main>
      </div>
      {renderChangePassword({ open: passwordOpen, onOpenChange: setPasswordOpen })}
    </div>
  );
}
