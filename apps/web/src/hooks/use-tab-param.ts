import { useSearchParams } from "react-router";

/**
 * The open tab of a screen, kept in the address as `?tab=` so a reload or a shared link opens
 * it again. The first tab is the default and leaves the address bare; an unknown value opens it.
 */
export function useTabParam<T extends string>(
  tabs: readonly { value: T }[],
): [T, (next: string) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const fallback = tabs[0]?.value as T;
  const requested = searchParams.get("tab");
  const tab = tabs.find((t) => t.value === requested)?.value ?? fallback;
  const setTab = (next: string) =>
    setSearchParams(next === fallback ? {} : { tab: next }, { replace: true });
  return [tab, setTab];
}
