import { clsx } from "clsx";
import { type ReactNode, useId } from "react";
import { buttonClasses } from "@/components/ui/button";
import { SearchBox } from "@/components/ui/search-box";
import type { ChatLogChannel, ChatLogFlagged, ChatLogPlan, ChatLogsParams } from "../api/chat-logs";

const inputClasses =
  "h-10 w-full rounded-xl border border-stone-300 bg-white px-3 text-sm text-stone-900 focus:border-brand-500 focus:outline-2 focus:outline-offset-0 focus:outline-brand-500/30 dark:border-white/15 dark:bg-stone-950 dark:text-white dark:[color-scheme:dark]";

/** A filter's control under its small label. */
function Filter({
  id,
  label,
  className,
  children,
}: {
  id: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label
        htmlFor={id}
        className="mb-1 block text-xs font-medium text-stone-600 dark:text-stone-400"
      >
        {label}
      </label>
      {children}
    </div>
  );
}

/**
 * The filters above the chat logs: search (applied once typing pauses), plan, type, flags
 * (conversations with a message the crisis check flagged), from and to
 * dates (applied at once), and Reset filters while any is set.
 */
export function ChatLogFilters({
  params,
  searchText,
  onSearchText,
  filter,
  filtered,
  onReset,
}: {
  params: ChatLogsParams;
  searchText: string;
  onSearchText: (text: string) => void;
  filter: (patch: Partial<Omit<ChatLogsParams, "page">>) => void;
  /** Some filter differs from the defaults. */
  filtered: boolean;
  onReset: () => void;
}) {
  const ids = {
    search: useId(),
    plan: useId(),
    channel: useId(),
    flagged: useId(),
    start: useId(),
    end: useId(),
  };
  return (
    <div className="grid gap-3 border-b border-stone-200 p-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(5,minmax(0,1fr))_auto] lg:items-end dark:border-white/10">
      <Filter id={ids.search} label="Search" className="sm:col-span-2 lg:col-span-1">
        <SearchBox
          id={ids.search}
          value={searchText}
          onChange={onSearchText}
          placeholder="User name or email"
          inputClassName={clsx(inputClasses, "pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden")}
        />
      </Filter>
      <Filter id={ids.plan} label="Plan">
        <select
          id={ids.plan}
          value={params.plan}
          onChange={(event) => filter({ plan: event.target.value as ChatLogPlan })}
          className={inputClasses}
        >
          <option value="all">All plans</option>
          <option value="premium">Premium</option>
          <option value="standard">Standard</option>
        </select>
      </Filter>
      <Filter id={ids.channel} label="Type">
        <select
          id={ids.channel}
          value={params.channel}
          onChange={(event) => filter({ channel: event.target.value as ChatLogChannel })}
          className={inputClasses}
        >
          <option value="all">Chats and calls</option>
          <option value="call">With voice calls</option>
          <option value="chat">Chat only</option>
        </select>
      </Filter>
      <Filter id={ids.flagged} label="Flags">
        <select
          id={ids.flagged}
          value={params.flagged}
          onChange={(event) => filter({ flagged: event.target.value as ChatLogFlagged })}
          className={inputClasses}
        >
          <option value="all">All conversations</option>
          <option value="flagged">Flagged</option>
        </select>
      </Filter>
      <Filter id={ids.start} label="From">
        <input
          id={ids.start}
          type="date"
          value={params.startDate}
          max={params.endDate || undefined}
          onChange={(event) => filter({ startDate: event.target.value })}
          className={inputClasses}
        />
      </Filter>
      <Filter id={ids.end} label="To">
        <input
          id={ids.end}
          type="date"
          value={params.endDate}
          min={params.startDate || undefined}
          onChange={(event) => filter({ endDate: event.target.value })}
          className={inputClasses}
        />
      </Filter>
      <button
        type="button"
        onClick={onReset}
        disabled={!filtered}
        className={buttonClasses("ghost", "sm", "h-10 justify-self-start")}
      >
        Reset filters
      </button>
    </div>
  );
}
