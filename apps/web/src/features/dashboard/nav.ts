import {
  CreditCard,
  History,
  LayoutDashboard,
  type LucideIcon,
  MessageCircle,
  Phone,
  Receipt,
  UserRound,
} from "lucide-react";

export interface DashboardNavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Active only on exactly this path (the overview). */
  end?: boolean;
}

/** The sidebar entries of the user-side spec (section 2), in its order. */
export const DASHBOARD_NAV: readonly DashboardNavItem[] = [
  { label: "Dashboard", to: "/dashboard", icon: LayoutDashboard, end: true },
  { label: "Chat", to: "/dashboard/chat", icon: MessageCircle },
  { label: "Call", to: "/dashboard/call", icon: Phone },
  { label: "Call History", to: "/dashboard/call-history", icon: History },
  { label: "Credit and Billing", to: "/dashboard/credits", icon: CreditCard },
  { label: "Transaction History", to: "/dashboard/transactions", icon: Receipt },
  { label: "My Profile", to: "/dashboard/profile", icon: UserRound },
];

/** /dashboard-old: the tab names it understands and where each one now lives. */
export const LEGACY_TAB_PATHS: Readonly<Record<string, string>> = {
  overview: "/dashboard",
  chat: "/dashboard/chat",
  call: "/dashboard/call",
  "call-history": "/dashboard/call-history",
  credits: "/dashboard/credits",
  profile: "/dashboard/profile",
};

export function legacyTabPath(tab: string | null | undefined): string {
  return (
    (tab && Object.hasOwn(LEGACY_TAB_PATHS, tab) ? LEGACY_TAB_PATHS[tab] : null) ?? "/dashboard"
  );
}
