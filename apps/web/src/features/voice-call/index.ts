export { CallPage, CallPage as CallRoute, type CallPageProps } from "./components/call-page";
