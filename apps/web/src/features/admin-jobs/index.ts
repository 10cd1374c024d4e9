export { AdminJobsPage } from "./components/jobs-page";
