import {
  BarChart3,
  Bot,
  ClipboardList,
  CreditCard,
  History,
  KeyRound,
  LayoutDashboard,
  ListChecks,
  type LucideIcon,
  MessagesSquare,
  Package,
  Receipt,
  Settings,
  TicketPercent,
  Users,
  Wallet,
} from "lucide-react";

export interface AdminNavItem {
  label: string;
  to: string;
  icon: LucideIcon;
}

/** Every admin screen of the route table (admin-side spec, section 2), and the audit log. */
export const ADMIN_NAV_ITEMS: AdminNavItem[] = [
  { label: "Dashboard", to: "/admin/dashboard", icon: LayoutDashboard },
  { label: "Users", to: "/admin/users", icon: Users },
  { label: "Chat Logs", to: "/admin/chat-logs", icon: MessagesSquare },
  { label: "API Keys", to: "/admin/api-keys", icon: KeyRound },
  { label: "Subscription Plans", to: "/admin/subscriptions", icon: CreditCard },
  { label: "AI Training", to: "/admin/AITraining", icon: Bot },
  { label: "Settings", to: "/admin/Settings", icon: Settings },
  { label: "Credit Packages", to: "/admin/ManageCredits", icon: Package },
  { label: "User Analytics", to: "/admin/UserAnalytics", icon: BarChart3 },
  { label: "Subscription Transactions", to: "/admin/subscription-transactions", icon: Receipt },
  { label: "Credit Transactions", to: "/admin/credit-transactions", icon: Wallet },
  { label: "Subscription History", to: "/admin/subscription-history", icon: History },
  { label: "Promotion Codes", to: "/admin/promotion-codes", icon: TicketPercent },
  { label: "Audit Log", to: "/admin/audit-log", icon: ClipboardList },
  { label: "Jobs", to: "/admin/jobs", icon: ListChecks },
];
