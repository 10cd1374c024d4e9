export { ADMIN_DEFAULT_ROUTE, ADMIN_LOGIN_ROUTE } from "./api/origin";
export { logoutAdmin, readAdminData } from "./api/session";
export { AdminGuard, adminVerifyQueryKey } from "./components/admin-guard";
export { AdminLoginPage } from "./components/admin-login-page";
export { ChangePasswordDialog } from "./components/change-password-dialog";
