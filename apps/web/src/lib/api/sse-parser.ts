/** One server-sent event: its `event` name ("message" when none) and its data, JSON-parsed when it is JSON. */
export interface StreamEvent {
  event: string;
  data: unknown;
}

/**
 * Splits a text/event-stream into events (the WHATWG rules: `event:` and `data:` fields, data
 * lines joined by "\n", a blank line ends an event, lines starting with ":" are comments).
 * `push` takes decoded text in any pieces; `end` flushes an event the stream left unterminated.
 */
export function createSseParser(onEvent: (event: StreamEvent) => void) {
  let buffer = "";
  let eventName = "";
  let data: string[] = [];
  const dispatch = () => {
    if (data.length > 0) {
      const text = data.join("\n");
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: the text itself
      }
      onEvent({ event: eventName || "message", data: parsed });
    }
    eventName = "";
    data = [];
  };
  const line = (raw: string) => {
    if (raw === "") return dispatch();
    if (raw.startsWith(":")) return;
    const colon = raw.indexOf(":");
    const field = colon === -1 ? raw : raw.slice(0, colon);
    let value = colon === -1 ? "" : raw.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") eventName = value;
    else if (field === "data") data.push(value);
  };
  return {
    push(text: string) {
      buffer += text;
      let index = buffer.search(/\r\n|\r|\n/);
      while (index !== -1) {
        // A lone "\r" at the very end may be the first half of "\r\n": wait for more.
        if (buffer[index] === "\r" && index === buffer.length - 1) break;
        const length = buffer.startsWith("\r\n", index) ? 2 : 1;
        line(buffer.slice(0, index));
        buffer = buffer.slice(index + length);
        index = buffer.search(/\r\n|\r|\n/);
      }
    },
    end() {
      if (buffer) line(buffer);
      buffer = "";
      dispatch();
    },
  };
}
