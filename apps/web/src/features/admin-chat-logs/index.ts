export { AdminChatLogsPage } from "./components/chat-logs-page";
