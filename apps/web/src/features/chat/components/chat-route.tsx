import { useCallback } from "react";
import { useNavigate } from "react-router";
import { ChatPage } from "./chat-page";

/**
 * `/dashboard/chat`. Until the billing issue brings the subscription dialog, Subscribe goes to
 * the credits page (docs/decisions/0009-chat-screen.md).
 */
export function ChatRoute() {
  const navigate = useNavigate();
  const onSubscribe = useCallback(() => navigate("/dashboard/credits"), [navigate]);
  return <ChatPage onSubscribe={onSubscribe} />;
}
