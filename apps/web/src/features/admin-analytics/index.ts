export { AdminUserAnalyticsPage } from "./components/analytics-page";
