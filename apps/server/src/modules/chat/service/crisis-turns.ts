import { routes, type SendMessageRequest, type SendMessageResult } from "@twinline/contracts";
import type { UserRow } from "../../../db/schema/index.ts";
import { titleFrom } from "../prompt.ts";
import { type ChatDeps, type CrisisSend, giveBack, type PreparedSend } from "./deps.ts";
import { toChatMessage } from "./views.ts";

/** The caring message instead of a reply when the crisis check flags the fan's words. */
export async function crisisSend(
  deps: ChatDeps,
  user: UserRow,
  body: SendMessageRequest,
  message: string,
  limit: number | null,
  day: string,
): Promise<CrisisSend | null> {
  const desk = deps.crisis;
  const flag = await desk?.check(message);
  if (!desk || !flag) return null;
  const [turn, counts] = await Promise.all([
    desk.refer({
      userId: user.id,
      place: { kind: "chat", conversationId: body.conversationId, title: titleFrom(message) },
      content: message,
      flag,
      origin: routes.chat.send.path,
    }),
    deps.repository.usage(user.id, day),
  ]);
  if (!turn.fanMessage) throw new Error("A referred message is stored with the fan's words");
  // A conversation or sitting that starts with a crisis turn still gets its AI notice.
  const notices = await deps.notices?.forChatMessage(
    user.id,
    turn.crisisMessage.conversationId,
    !body.conversationId,
  );
  return {
    crisis: {
      response: turn.crisisMessage.content,
      conversationId: turn.crisisMessage.conversationId,
      userMessage: toChatMessage(turn.fanMessage),
      aiMessage: toChatMessage(turn.crisisMessage),
      remaining: limit === null ? "unlimited" : Math.max(0, limit - counts.today),
      crisis: { resources: turn.resources },
      notices: (notices?.messages ?? []).map((row) => toChatMessage(row)),
    },
  };
}

/** With a key, a reply giving self-harm instructions: the caring message replaces it. */
export async function replacedReply(
  deps: ChatDeps,
  prepared: PreparedSend,
  text: string,
  signal: AbortSignal,
): Promise<SendMessageResult | null> {
  const desk = deps.crisis;
  const flag = await desk?.checkReply(text, signal).catch((error: unknown) => {
    if (!signal.aborted) deps.log.error({ err: error }, "The reply's crisis check failed");
    return null;
  });
  if (!desk || !flag) return null;
  const turn = await desk.replaceReply({
    userId: prepared.user.id,
    place: { kind: "chat", conversationId: prepared.conversationId, title: "" },
    flag,
    origin: routes.chat.send.path,
  });
  // A crisis turn costs no free message.
  await giveBack(deps, prepared);
  const remaining = prepared.remaining;
  return {
    response: turn.crisisMessage.content,
    conversationId: prepared.conversationId,
    userMessage: prepared.userMessage,
    aiMessage: toChatMessage(turn.crisisMessage),
    remaining: typeof remaining === "number" && prepared.counted ? remaining + 1 : remaining,
    crisis: { resources: turn.resources },
  };
}
