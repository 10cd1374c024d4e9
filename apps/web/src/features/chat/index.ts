export { ChatPage, type ChatPageProps } from "./components/chat-page";
export { ChatRoute } from "./components/chat-route";
