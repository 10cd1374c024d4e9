import { type ChatSender, PRODUCT_KIND_LABELS, type ProductMessageKind } from "@twinline/contracts";

/**
 * Who a message or a transcript turn names: the fan (`you`), the persona, or, for the
 * product's own messages (the AI notice, a break reminder), their kind (issue 25).
 */
export function speakerName(
  message: { sender: ChatSender; productKind?: ProductMessageKind | null },
  names: { you: string; persona: string },
): string {
  if (message.sender === "product") return PRODUCT_KIND_LABELS[message.productKind ?? "ai-notice"];
  return message.sender === "user" ? names.you : names.persona;
}
