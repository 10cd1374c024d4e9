import { createServer, type Server } from "node:http";

/**
 * A local server speaking the OpenAI chat-completions API, so the app's real SDK code streams
 * from it. Each piece of `reply` is sent `gapMs` after the previous one, slow enough for a
 * browser to show the reply growing.
 */
export async function startFakeOpenAi(options: { reply: string[]; gapMs: number }) {
  const server: Server = createServer((request, response) => {
    if (request.method === "GET" && request.url?.endsWith("/models")) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          object: "list",
          data: [{ id: "fake-model", object: "model", created: 0, owned_by: "e2e" }],
        }),
      );
      return;
    }
    if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) {
      response.writeHead(404).end();
      return;
    }
    request.resume();
    request.on("end", async () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({
          id: "chatcmpl-e2e",
          object: "chat.completion.chunk",
          created: 0,
          model: "fake-model",
          choices: [{ index: 0, delta, finish_reason: finish }],
        })}\n\n`;
      for (const piece of options.reply) {
        if (response.destroyed) return;
        response.write(chunk({ content: piece }, null));
        await new Promise((resolve) => setTimeout(resolve, options.gapMs));
      }
      response.write(chunk({}, "stop"));
      response.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    /** The OPENAI_BASE_URL to give the app. */
    url: `http://127.0.0.1:${port}/v1`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
