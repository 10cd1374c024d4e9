import type { ActiveSpan, Observability, ProviderKind } from "./observability.ts";

/** A caller's abort (a client gone, a barge-in, the chat's timeout) is not the provider failing. */
function outcomeOf(error: unknown): "error" | "aborted" {
  const name = error instanceof Error ? error.name : "";
  return /abort/i.test(name) ? "aborted" : "error";
}

type Finish = (error?: unknown) => void;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}

/**
 * A stream (the LLM's reply) is one call from its start to its last piece: the span and the
 * time end when it ends, fails or is left (the reader stops early: not a failure).
 */
function observedStream<T>(
  stream: AsyncIterable<T>,
  finish: Finish,
  span: ActiveSpan | undefined,
): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const iterator = stream[Symbol.asyncIterator]();
      let first = true;
      let done = false;
      const end = (error?: unknown) => {
        if (done) return;
        done = true;
        finish(error);
      };
      return {
        async next() {
          try {
            const step = await iterator.next();
            if (step.done) end();
            else if (first) {
              first = false;
              span?.event("first chunk");
            }
            return step;
          } catch (error) {
            end(error);
            throw error;
          }
        },
        async return(value?: unknown) {
          end();
          return (await iterator.return?.(value)) ?? { done: true, value: undefined as T };
        },
      };
    },
  };
}

/** Nested objects whose methods are calls too (the payments' Stripe catalogue). */
const NESTED = new Set(["catalogue"]);
/** Not a call to the provider: closing the mail transport. */
const SKIPPED = new Set(["close"]);

/**
 * THE wrapper of every provider (providers/resolve.ts, the mail provider): each method call is
 * timed (twinline_provider_call_duration_seconds, errors in twinline_provider_errors_total)
 * and, with tracing on, a span (`llm.streamChat`...) child of the request's. With both off the
 * provider itself is answered: nothing on the path.
 */
export function observeProvider<T extends object>(
  observability: Observability,
  kind: ProviderKind,
  implementation: string,
  provider: T,
  prefix = "",
): T {
  const { metrics, tracing } = observability;
  if (!metrics.enabled && !tracing) return provider;
  const wrapped = new Map<PropertyKey, unknown>();

  const call = (operation: string, method: (...args: unknown[]) => unknown, args: unknown[]) => {
    const started = performance.now();
    const span = tracing?.startSpan(`${kind}.${operation}`, {
      "twinline.provider": kind,
      "twinline.provider.implementation": implementation,
      "twinline.provider.operation": operation,
    });
    const finish: Finish = (error) => {
      const outcome = error === undefined ? "ok" : outcomeOf(error);
      metrics.providerCall(
        kind,
        implementation,
        operation,
        (performance.now() - started) / 1000,
        outcome,
      );
      span?.end(outcome === "error" ? error : undefined);
    };
    let result: unknown;
    try {
      result = span ? span.run(() => method.apply(provider, args)) : method.apply(provider, args);
    } catch (error) {
      finish(error);
      throw error;
    }
    if (isThenable(result)) {
      return Promise.resolve(result).then(
        (value) => {
          finish();
          return value;
        },
        (error: unknown) => {
          finish(error);
          throw error;
        },
      );
    }
    if (isAsyncIterable(result)) return observedStream(result, finish, span);
    finish();
    return result;
  };

  return new Proxy(provider, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof property !== "string" || SKIPPED.has(property)) return value;
      const known = wrapped.get(property);
      if (known !== undefined) return known;
      let replacement: unknown;
      if (typeof value === "function") {
        const operation = `${prefix}${property}`;
        replacement = (...args: unknown[]) =>
          call(operation, value as (...args: unknown[]) => unknown, args);
      } else if (NESTED.has(property) && typeof value === "object" && value !== null) {
        replacement = observeProvider(observability, kind, implementation, value, `${property}.`);
      } else {
        return value;
      }
      wrapped.set(property, replacement);
      return replacement;
    },
  });
}
