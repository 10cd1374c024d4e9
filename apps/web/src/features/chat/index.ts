export { ChatPage, type ChatPageProps } from "./components/chat-page";
