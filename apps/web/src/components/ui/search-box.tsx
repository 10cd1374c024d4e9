import { Search, X } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";

/** Search waits this long after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The text in a search box and the search it applies: `apply` gets the trimmed text once typing
 * pauses for `delayMs`, unless it is the search already applied.
 */
export function useDebouncedSearch(
  applied: string,
  apply: (search: string) => void,
  delayMs = SEARCH_DEBOUNCE_MS,
) {
  const [text, setText] = useState(applied);
  const latest = useRef(apply);
  latest.current = apply;
  useEffect(() => {
    const value = text.trim();
    if (value === applied) return;
    const timer = setTimeout(() => latest.current(value), delayMs);
    return () => clearTimeout(timer);
  }, [text, applied, delayMs]);
  return [text, setText] as const;
}

/** A search input with its icon and a Clear search button while it holds text. */
export function SearchBox({
  id,
  value,
  onChange,
  placeholder,
  className,
  inputClassName,
  children,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  /** The wrapper's classes besides `relative`. */
  className?: string;
  inputClassName: string;
  /** Rendered first inside the wrapper, e.g. a visually hidden label. */
  children?: ReactNode;
}) {
  return (
    <div className={className ? `relative ${className}` : "relative"}>
      {children}
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-400"
      />
      <input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        className={inputClassName}
      />
      {value && (
        <button
          type="button"
          onClick={() => onChange("")}
          aria-label="Clear search"
          className="absolute top-1/2 right-2 inline-flex size-6 -translate-y-1/2 items-center justify-center rounded-full text-stone-500 hover:bg-stone-100 hover:text-stone-900 dark:hover:bg-white/10 dark:hover:text-white"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      )}
    </div>
  );
}

/** The search of a users table's title row: by name or e-mail. */
export function UserSearchBox({
  value,
  onChange,
}: {
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <SearchBox
      id={id}
      value={value}
      onChange={onChange}
      placeholder="Search by name or email"
      className="w-full sm:max-w-xs"
      inputClassName="h-10 w-full rounded-xl border border-stone-300 bg-white pr-9 pl-9 text-sm text-stone-900 placeholder:text-stone-400 focus:border-brand-500 focus:outline-2 focus:outline-offset-0 focus:outline-brand-500/30 dark:border-white/15 dark:bg-stone-950 dark:text-white dark:placeholder:text-stone-500 [&::-webkit-search-cancel-button]:hidden"
    >
      <label htmlFor={id} className="sr-only">
        Search users by name or email
      </label>
    </SearchBox>
  );
}
