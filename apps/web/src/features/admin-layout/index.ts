export { AdminLayout, type AdminLayoutProps } from "./components/admin-layout";
export { AdminNotFound } from "./components/admin-not-found";
export { ADMIN_NAV_ITEMS } from "./components/nav-items";
export { SIDEBAR_MOBILE_BREAKPOINT_PX, SIDEBAR_STORAGE_KEY, useSidebar } from "./hooks/use-sidebar";
