/** One turn of the conversation sent to the model (the system text goes apart). */
export interface ChatTurn {
  role: "user" | "assistant";
  content: string;
}

export interface StreamChatRequest {
  /** The persona's instructions and knowledge passages: see composeSystemPrompt. */
  system: string;
  /** Oldest first; the last one is the question to answer. */
  messages: ChatTurn[];
  /** Aborting it cancels the provider request (a client that went away). */
  signal?: AbortSignal;
  maxTokens?: number;
}

/** The language model behind the persona (docs/decisions/0010-provider-keys.md). */
export interface LlmProvider {
  readonly mode: "openai" | "offline";
  /** Model ids the key can use (the admin's key test shows them). */
  listModels(): Promise<string[]>;
  /** The answer's text as it arrives, piece by piece. */
  streamChat(request: StreamChatRequest): AsyncIterable<string>;
}
