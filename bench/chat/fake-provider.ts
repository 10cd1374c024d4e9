// An OpenAI-compatible chat-completions server that streams a short reply at once, and notes
// (on the machine-wide monotonic clock) the moment it writes each reply's first token.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** process.hrtime in ms: comparable across the processes of one machine. */
export const monotonicNow = () => Number(process.hrtime.bigint()) / 1e6;

export async function startFakeProvider() {
  let firstTokenAt = Number.NaN;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (request.url?.endsWith("/models")) {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ object: "list", data: [] }));
        return;
      }
      const base = {
        id: "chatcmpl-bench",
        object: "chat.completion.chunk",
        created: 0,
        model: "bench",
      };
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      response.writeHead(200, { "content-type": "text/event-stream" });
      firstTokenAt = monotonicNow();
      response.write(chunk({ role: "assistant", content: "Hello" }));
      for (const piece of [" there,", " nice", " to", " meet", " you."]) {
        response.write(chunk({ content: piece }));
      }
      response.write(chunk({}, "stop"));
      response.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    /** When the latest reply's first token was written. */
    firstTokenAt: () => firstTokenAt,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
