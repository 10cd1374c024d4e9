export { formatDuration } from "./api/chat-logs";
export { AdminChatLogsPage } from "./components/chat-logs-page";
