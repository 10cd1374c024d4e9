import * as Tabs from "@radix-ui/react-tabs";
import type { ReactNode } from "react";

/**
 * A screen's tabs (Radix: arrow keys move between them): an underlined row that wraps on
 * phones, so no tab is cut off at the edge (issue 24), then the panels given as children
 * (`TabPanel`s).
 */
export function PageTabs<T extends string>({
  label,
  tabs,
  value,
  onValueChange,
  children,
}: {
  /** Names the tab row for screen readers. */
  label: string;
  tabs: readonly { value: T; label: string }[];
  value: T;
  onValueChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <Tabs.Root value={value} onValueChange={onValueChange}>
      <Tabs.List
        aria-label={label}
        className="flex flex-wrap gap-x-1 border-b border-stone-200 dark:border-white/10"
      >
        {tabs.map((t) => (
          <Tabs.Trigger
            key={t.value}
            value={t.value}
            className="-mb-px shrink-0 border-b-2 border-transparent px-3 py-2.5 text-sm font-medium whitespace-nowrap text-stone-600 transition hover:text-stone-900 data-[state=active]:border-brand-600 data-[state=active]:text-brand-700 dark:text-stone-400 dark:hover:text-white dark:data-[state=active]:border-brand-400 dark:data-[state=active]:text-brand-300"
          >
            {t.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {children}
    </Tabs.Root>
  );
}

/** One tab's panel of `PageTabs`. */
export function TabPanel({ value, children }: { value: string; children: ReactNode }) {
  return (
    <Tabs.Content value={value} className="pt-6">
      {children}
    </Tabs.Content>
  );
}
