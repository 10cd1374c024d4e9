import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Brain, Phone, Trash2 } from "lucide-react";
import toast from "react-hot-toast";
import { buttonClasses } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/load-states";
import { Spinner } from "@/components/ui/spinner";
import { Toggle } from "@/components/ui/toggle";
import { errorMessage } from "@/lib/api-client";
import { formatDate } from "@/lib/format";
import { useSettings } from "@/lib/settings";
import { deleteSummary, forgetFact, memoryQuery, setMemoryEnabled } from "../api/memory-api";
import { MEMORY_TEXT } from "../messages";
import { ProfileCard } from "./profile-card";

/**
 * "What <persona> remembers": the running summary and the facts the fan told, each deletable,
 * and the switch that turns memory off. Every change applies from the next reply.
 */
export function MemorySection() {
  const { settings } = useSettings();
  const name = settings.aiProfile.name;
  const client = useQueryClient();
  const memory = useQuery(memoryQuery());
  const change = useMutation({
    mutationFn: (action: () => Promise<unknown>) => action(),
    onSettled: () => client.invalidateQueries({ queryKey: memoryQuery().queryKey }),
    onError: (error) => toast.error(errorMessage(error, MEMORY_TEXT.failed)),
  });
  const data = memory.data;

  return (
    <ProfileCard
      icon={<Brain aria-hidden="true" className="size-5" />}
      title={MEMORY_TEXT.title(name)}
      description={MEMORY_TEXT.description(name)}
    >
      {memory.isPending ? (
        <Spinner />
      ) : memory.isError || !data ? (
        <ErrorState
          layout="inline"
          message={MEMORY_TEXT.failedLoad}
          onRetry={() => void memory.refetch()}
        />
      ) : (
        <div className="space-y-5" data-testid="memory-section">
          <Toggle
            label={MEMORY_TEXT.switchLabel(name)}
            description={MEMORY_TEXT.switchDescription(name)}
            checked={data.enabled}
            onChange={(enabled) => change.mutate(() => setMemoryEnabled(enabled))}
          />
          <div>
            <h3 className="text-sm font-semibold text-stone-900 dark:text-white">
              {MEMORY_TEXT.summaryHeading}
            </h3>
            {data.summary ? (
              <div className="mt-2 flex items-start gap-3 rounded-xl bg-stone-50 p-3 text-sm dark:bg-white/5">
                <p className="flex-1 text-stone-700 dark:text-stone-300">{data.summary.content}</p>
                <button
                  type="button"
                  onClick={() => change.mutate(deleteSummary)}
                  disabled={change.isPending}
                  aria-label={MEMORY_TEXT.deleteSummary}
                  className={buttonClasses("ghost", "sm", "px-2")}
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                </button>
              </div>
            ) : (
              <p className="mt-1 text-sm text-stone-500 dark:text-stone-400">
                {MEMORY_TEXT.noSummary}
              </p>
            )}
          </div>
          <div>
            <h3 className="text-sm font-semibold text-stone-900 dark:text-white">
              {MEMORY_TEXT.factsHeading}
            </h3>
            {data.facts.length === 0 ? (
              <p className="mt-1 text-sm text-stone-500 dark:text-stone-400">
                {MEMORY_TEXT.noFacts(name)}
              </p>
            ) : (
              <ul className="mt-2 divide-y divide-stone-200 dark:divide-white/10">
                {data.facts.map((fact) => (
                  <li
                    key={fact._id}
                    className="flex items-start gap-3 py-2.5 text-sm"
                    data-testid="memory-fact"
                  >
                    <div className="min-w-0 flex-1">
                      <p className="break-words text-stone-800 dark:text-stone-200">
                        {fact.content}
                      </p>
                      <p className="mt-0.5 flex items-center gap-1 text-xs text-stone-500 dark:text-stone-400">
                        {fact.callId && <Phone aria-hidden="true" className="size-3" />}
                        {fact.callId ? MEMORY_TEXT.onCall : MEMORY_TEXT.inChat}
                        {" · "}
                        {formatDate(fact.timestamp)}
                      </p>
                    </div>
                    <button
                      type="button"
                      onClick={() => change.mutate(() => forgetFact(fact._id))}
                      disabled={change.isPending}
                      aria-label={MEMORY_TEXT.deleteFact(fact.content)}
                      className={buttonClasses("ghost", "sm", "px-2")}
                    >
                      <Trash2 aria-hidden="true" className="size-4" />
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
    </ProfileCard>
  );
}
