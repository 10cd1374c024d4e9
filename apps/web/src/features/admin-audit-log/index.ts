export { AdminAuditLogPage } from "./components/audit-log-page";
