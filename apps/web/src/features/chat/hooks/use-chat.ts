import {
  type InfiniteData,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type {
  ChatMessage,
  ChatSender,
  ChatUsage,
  ProductMessageKind,
  SendMessageResult,
} from "@twinline/contracts";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import toast from "react-hot-toast";
import {
  chatKeys,
  classifySendFailure,
  clearHistory,
  type MessagesPage,
  messagesQuery,
  type SendFailure,
  sendChatMessage,
  usageQuery,
} from "../api/chat";
import { CHAT_RELOAD_THROTTLE_MS, CHAT_TEXT } from "../messages";

/** A message on screen: from the server, or one of this visit's (sending, streaming, notices). */
export interface DisplayMessage {
  key: string;
  sender: ChatSender;
  /** A product message's kind: the AI notice and break reminder as notices, crisis-support as its card. */
  productKind?: ProductMessageKind | null;
  content: string;
  timestamp?: string;
  /** sending: on its way; failed: not delivered; streaming: the reply arriving; notice: a bubble of the screen's own (fallback, limit). */
  state?: "sending" | "failed" | "streaming" | "notice";
  notice?: "fallback" | "limit";
  /** A message of the fan's the persona could not answer (kept by the server, so it lasts). */
  replyFailed?: boolean;
  /** A turn of this voice call (shown folded into its call). */
  callId?: string;
  /** The call's length in seconds once it ended. */
  callDuration?: number | null;
}

interface LocalEntry extends DisplayMessage {
  /** The server's id once it answered; the server's copy then takes its place. */
  serverId?: string;
  /** Kept by the server although the reply failed: its server copy has an id we do not know. */
  kept?: boolean;
  sentAt: number;
}

let sequence = 0;
const localKey = (prefix: string) => `${prefix}-${Date.now()}-${++sequence}`;

/** Server pages (newest first) as one list, oldest to newest, without the overlaps paging shifts leave. */
export function flattenPages(pages: MessagesPage[] | undefined): ChatMessage[] {
  if (!pages) return [];
  const seen = new Set<string>();
  const out: ChatMessage[] = [];
  for (const page of [...pages].reverse()) {
    for (const message of page.messages) {
      if (seen.has(message._id)) continue;
      seen.add(message._id);
      out.push(message);
    }
  }
  return out;
}

export type SendOutcome = { ok: true } | { ok: false; restore: boolean };

export interface UseChatOptions {
  /** The daily limit to show when the server's 403 carries none (from settings). */
  fallbackDailyLimit: number;
  /** Called on the daily-limit refusal, after the bubble is shown (the screen shows the toast). */
  onLimit: (dailyLimit: number) => void;
}

/**
 * The chat's state: the server's pages (TanStack Query: kept 10 s, old after 10 s, requests
 * shared), this visit's messages on top of them, the streamed reply, sending, clearing, loading
 * older pages and the throttled reload.
 */
export function useChat({ fallbackDailyLimit, onLimit }: UseChatOptions) {
  const queryClient = useQueryClient();
  const messages = useInfiniteQuery(messagesQuery());
  const usage = useQuery(usageQuery());
  const [local, setLocal] = useState<LocalEntry[]>([]);
  const [streaming, setStreaming] = useState<{ key: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  /** A send of this visit was answered by the crisis message (the resources get pinned). */
  const [crisisGiven, setCrisisGiven] = useState(false);
  const abortRef = useRef<AbortController | null>(null);
  const conversationRef = useRef<string | null>(null);
  const lastReloadRef = useRef(0);
  const reloadTimerRef = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Leaving the screen cancels a reply on its way (the server then stops the provider).
  useEffect(
    () => () => {
      abortRef.current?.abort(new DOMException("The chat was left", "AbortError"));
      clearTimeout(reloadTimerRef.current);
    },
    [],
  );

  const serverMessages = useMemo(() => flattenPages(messages.data?.pages), [messages.data]);

  const items = useMemo<DisplayMessage[]>(() => {
    const ids = new Set(serverMessages.map((m) => m._id));
    // A kept message's server copy is found by its text among the server's user messages.
    const unclaimed = serverMessages.filter((m) => m.sender === "user").map((m) => m.content);
    const visibleLocal = local.filter((entry) => {
      if (entry.serverId) return !ids.has(entry.serverId);
      if (entry.kept) {
        const index = unclaimed.lastIndexOf(entry.content);
        if (index !== -1) {
          unclaimed.splice(index, 1);
          return false;
        }
      }
      return true;
    });
    const list: DisplayMessage[] = serverMessages.map((m) => ({
      key: m._id,
      sender: m.sender,
      ...(m.productKind ? { productKind: m.productKind } : {}),
      content: m.content,
      timestamp: m.timestamp,
      ...(m.replyFailed ? { replyFailed: true } : {}),
      ...(m.callId ? { callId: m.callId, callDuration: m.callDuration ?? null } : {}),
    }));
    for (const entry of visibleLocal) {
      list.push({
        key: entry.key,
        sender: entry.sender,
        ...(entry.productKind ? { productKind: entry.productKind } : {}),
        content: entry.content,
        timestamp: entry.timestamp,
        state: entry.state,
        notice: entry.notice,
      });
    }
    if (streaming?.text) {
      list.push({ key: streaming.key, sender: "ai", content: streaming.text, state: "streaming" });
    }
    return list;
  }, [serverMessages, local, streaming]);

  /** Reloads the conversation and the usage, at most once every 3 s (later calls wait their turn). */
  const reload = useCallback(() => {
    clearTimeout(reloadTimerRef.current);
    const wait = lastReloadRef.current + CHAT_RELOAD_THROTTLE_MS - Date.now();
    const run = () => {
      lastReloadRef.current = Date.now();
      void queryClient.refetchQueries({ queryKey: chatKeys.all, type: "active" });
    };
    if (wait <= 0) run();
    else reloadTimerRef.current = setTimeout(run, wait);
  }, [queryClient]);

  const setUsage = useCallback(
    (update: (old: ChatUsage) => ChatUsage) => {
      queryClient.setQueryData<ChatUsage>(chatKeys.usage, (old) => (old ? update(old) : old));
    },
    [queryClient],
  );

  const send = useCallback(
    async (text: string): Promise<SendOutcome> => {
      const message = text.trim();
      if (!message || busy) return { ok: false, restore: false };
      const userKey = localKey("user");
      const aiKey = localKey("ai");
      setLocal((list) => [
        ...list,
        { key: userKey, sender: "user", content: message, state: "sending", sentAt: Date.now() },
      ]);
      setStreaming({ key: aiKey, text: "" });
      setBusy(true);
      const controller = new AbortController();
      abortRef.current = controller;
      const conversationId =
        conversationRef.current ?? serverMessages.at(-1)?.conversationId ?? null;
      // The product's notices, shown as they come (before the reply), each once.
      const shown = new Set<string>();
      const noticeEntries = (notices: ChatMessage[]): LocalEntry[] =>
        notices
          .filter((notice) => !shown.has(notice._id))
          .map((notice) => {
            shown.add(notice._id);
            return {
              key: `notice-${notice._id}`,
              sender: "product" as const,
              ...(notice.productKind ? { productKind: notice.productKind } : {}),
              content: notice.content,
              timestamp: notice.timestamp,
              serverId: notice._id,
              sentAt: Date.now(),
            };
          });
      try {
        let streamed = "";
        const result: SendMessageResult = await sendChatMessage({
          message,
          conversationId,
          signal: controller.signal,
          onToken: (piece) => {
            streamed += piece;
            const textSoFar = streamed;
            setStreaming({ key: aiKey, text: textSoFar });
          },
          onNotice: (notice) => {
            const added = noticeEntries([notice]);
            setLocal((list) => [...list, ...added]);
          },
        });
        if (controller.signal.aborted) return { ok: true };
        conversationRef.current = result.conversationId;
        const lateNotices = noticeEntries(result.notices ?? []);
        setLocal((list) => [
          ...list.map((entry) =>
            entry.key === userKey
              ? {
                  ...entry,
                  state: undefined,
                  serverId: result.userMessage._id,
                  timestamp: result.userMessage.timestamp,
                }
              : entry,
          ),
          ...lateNotices,
          {
            key: aiKey,
            sender: result.aiMessage.sender,
            ...(result.aiMessage.productKind ? { productKind: result.aiMessage.productKind } : {}),
            content: result.aiMessage.content,
            timestamp: result.aiMessage.timestamp,
            serverId: result.aiMessage._id,
            sentAt: Date.now(),
          },
        ]);
        // A crisis turn costs nothing: no free message was used.
        if (result.crisis) setCrisisGiven(true);
        setUsage((old) =>
          result.crisis
            ? { ...old, remaining: result.remaining }
            : {
                ...old,
                total: old.total + 1,
                sentToday: old.sentToday + 1,
                remaining: result.remaining,
              },
        );
        return { ok: true };
      } catch (error) {
        if (controller.signal.aborted) return { ok: false, restore: false };
        const failure: SendFailure = classifySendFailure(error, fallbackDailyLimit);
        const kept = failure.kind === "failed" && failure.kept;
        setLocal((list) => [
          ...list.map((entry) =>
            entry.key === userKey
              ? { ...entry, state: kept ? undefined : ("failed" as const), kept }
              : entry,
          ),
          {
            key: aiKey,
            sender: "ai",
            content: failure.kind === "limit" ? CHAT_TEXT.limitBubble : CHAT_TEXT.fallbackBubble,
            state: "notice",
            notice: failure.kind === "limit" ? "limit" : "fallback",
            sentAt: Date.now(),
          },
        ]);
        if (failure.kind === "limit") {
          setUsage((old) => ({ ...old, remaining: 0 }));
          onLimit(failure.dailyLimit);
        } else {
          toast.error(failure.toast);
          if (failure.kept) reload();
        }
        return { ok: false, restore: !kept };
      } finally {
        if (abortRef.current === controller) abortRef.current = null;
        setStreaming(null);
        setBusy(false);
      }
    },
    [busy, serverMessages, fallbackDailyLimit, onLimit, reload, setUsage],
  );

  const [clearing, setClearing] = useState(false);
  const clear = useCallback(async (): Promise<boolean> => {
    setClearing(true);
    try {
      await clearHistory();
      await queryClient.cancelQueries({ queryKey: chatKeys.messages });
      queryClient.setQueryData<InfiniteData<MessagesPage, number>>(chatKeys.messages, {
        pages: [{ messages: [], pagination: { total: 0, page: 1, limit: 20, pages: 1 } }],
        pageParams: [1],
      });
      setLocal([]);
      conversationRef.current = null;
      toast.success(CHAT_TEXT.historyCleared);
      return true;
    } catch {
      toast.error(CHAT_TEXT.failedClear);
      return false;
    } finally {
      setClearing(false);
    }
  }, [queryClient]);

  const loadOlder = useCallback(async () => {
    if (!messages.hasNextPage || messages.isFetchingNextPage || messages.isFetching) return false;
    const result = await messages.fetchNextPage();
    if (result.isError) {
      toast.error(CHAT_TEXT.failedLoadMessages, { id: "chat-load-older" });
      return false;
    }
    return true;
  }, [messages]);

  return {
    items,
    usage: usage.data,
    isLoading: messages.isPending,
    loadError: messages.isError && !messages.data,
    errorUpdatedAt: messages.errorUpdatedAt,
    hasOlder: messages.hasNextPage,
    isLoadingOlder: messages.isFetchingNextPage,
    /** Waiting for the reply's first piece. */
    isWaiting: busy && !streaming?.text,
    busy,
    crisisGiven,
    clearing,
    send,
    clear,
    loadOlder,
    reload,
  };
}
