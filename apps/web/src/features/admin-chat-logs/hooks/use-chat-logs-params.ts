import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import type { ChatLogPlan, ChatLogSortField, ChatLogsParams, SortOrder } from "../api/chat-logs";

export const CHAT_LOGS_DEFAULTS: ChatLogsParams = {
  page: 1,
  search: "",
  plan: "all",
  startDate: "",
  endDate: "",
  sortBy: "startTime",
  sortOrder: -1,
};

const SORT_FIELDS: readonly ChatLogSortField[] = [
  "startTime",
  "lastMessageAt",
  "messageCount",
  "duration",
];
const PLANS: readonly ChatLogPlan[] = ["all", "premium", "standard"];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The table's page, filters and sort, kept in the address so Back, reload and links keep them. */
export function useChatLogsParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo<ChatLogsParams>(() => {
    const page = Number.parseInt(searchParams.get("page") ?? "", 10);
    const sortBy = searchParams.get("sortBy") as ChatLogSortField | null;
    const plan = searchParams.get("plan") as ChatLogPlan | null;
    const order = searchParams.get("sortOrder");
    const date = (key: string) => {
      const value = searchParams.get(key) ?? "";
      return DATE.test(value) ? value : "";
    };
    return {
      page: Number.isFinite(page) && page >= 1 ? page : CHAT_LOGS_DEFAULTS.page,
      search: searchParams.get("search") ?? "",
      plan: plan && PLANS.includes(plan) ? plan : CHAT_LOGS_DEFAULTS.plan,
      startDate: date("startDate"),
      endDate: date("endDate"),
      sortBy: sortBy && SORT_FIELDS.includes(sortBy) ? sortBy : CHAT_LOGS_DEFAULTS.sortBy,
      sortOrder: order === "1" ? 1 : order === "-1" ? -1 : CHAT_LOGS_DEFAULTS.sortOrder,
    };
  }, [searchParams]);

  const update = useCallback(
    (patch: Partial<ChatLogsParams>) => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          const merged = { ...params, ...patch };
          for (const key of Object.keys(CHAT_LOGS_DEFAULTS) as (keyof ChatLogsParams)[]) {
            const value = String(merged[key]);
            if (value === String(CHAT_LOGS_DEFAULTS[key])) next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace: true },
      );
    },
    [params, setSearchParams],
  );

  /** A filter change starts again on page 1. */
  const filter = useCallback(
    (patch: Partial<Omit<ChatLogsParams, "page">>) => update({ ...patch, page: 1 }),
    [update],
  );

  const sort = useCallback(
    (field: ChatLogSortField) => {
      const sortOrder: SortOrder = params.sortBy === field ? (params.sortOrder === 1 ? -1 : 1) : -1;
      update({ sortBy: field, sortOrder, page: 1 });
    },
    [params, update],
  );

  const reset = useCallback(() => update({ ...CHAT_LOGS_DEFAULTS }), [update]);

  return { params, update, filter, sort, reset };
}
