import { createParser } from "eventsource-parser";

/** One server-sent event: its `event` name ("message" when none) and its data, JSON-parsed when it is JSON. */
export interface StreamEvent {
  event: string;
  data: unknown;
}

/**
 * Splits a text/event-stream into events with eventsource-parser (the WHATWG rules), and gives
 * each event's data JSON-parsed when it is JSON. `push` takes decoded text in any pieces; `end`
 * also delivers an event the stream left unterminated (the server's last event may lack its
 * blank line when the connection closes right after it).
 */
export function createSseParser(onEvent: (event: StreamEvent) => void) {
  const parser = createParser({
    onEvent({ event, data }) {
      let parsed: unknown = data;
      try {
        parsed = JSON.parse(data);
      } catch {
        // not JSON: the text itself
      }
      onEvent({ event: event || "message", data: parsed });
    },
  });
  return {
    push(text: string) {
      parser.feed(text);
    },
    end() {
      // Two line ends close an open line and then the open event; after a complete stream
      // they are two blank lines, which dispatch nothing.
      parser.feed("\n\n");
      parser.reset();
    },
  };
}
