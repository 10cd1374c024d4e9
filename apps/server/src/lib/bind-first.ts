/** `fn` with its first parameter taken away. */
export type BoundFirst<F> = F extends (first: never, ...rest: infer P) => infer R
  ? (...rest: P) => R
  : never;

/**
 * Each function of `fns` with `first` passed as its first argument: how a factory binds its
 * module-level functions (a repository's queries to its `db`, a service's use cases to its
 * dependencies) without restating their parameters.
 */
export function bindFirst<
  First,
  Fns extends Record<string, (first: First, ...rest: never[]) => unknown>,
>(first: First, fns: Fns): { [K in keyof Fns]: BoundFirst<Fns[K]> } {
  const bound: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(fns)) {
    bound[name] = (...rest: never[]) => fn(first, ...rest);
  }
  return bound as { [K in keyof Fns]: BoundFirst<Fns[K]> };
}
