export {
  CallHistoryPage,
  CallHistoryPage as CallHistoryRoute,
} from "./components/call-history-page";
