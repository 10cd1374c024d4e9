import type { StripeEmulator } from "./emulator.ts";

/**
 * The emulator as a `fetch` function, for the SDK in-process:
 * `new Stripe(key, { httpClient: Stripe.createFetchHttpClient(emulatorFetch(emulator)) })`.
 * No socket and no port: the sandbox (phase 2 of decision 0094) runs every money path through
 * the official SDK without a server of its own.
 */
export function emulatorFetch(emulator: StripeEmulator): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await emulator.handle({
      method: request.method,
      url: url.pathname + url.search,
      body: request.method === "GET" ? "" : await request.text(),
      headers,
    });
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "content-type": "application/json", "request-id": "req_emulator" },
    });
  };
}
