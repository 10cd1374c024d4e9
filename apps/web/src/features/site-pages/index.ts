export { SitePageView } from "./components/site-page";
