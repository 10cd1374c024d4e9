import { useQuery } from "@tanstack/react-query";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState } from "@/components/ui/load-states";
import { Spinner } from "@/components/ui/spinner";
import { useSettings } from "@/lib/settings";
import { speakerName } from "@/lib/speakers";
import { CALL_HISTORY_TEXT, callDetailQuery } from "../api/call-history";

/** One call's stored transcript, both sides in order, loaded when the dialog opens. */
export function CallTranscriptDialog({
  callId,
  title,
  onClose,
}: {
  callId: string | null;
  title: string;
  onClose: () => void;
}) {
  const { settings } = useSettings();
  const detail = useQuery({ ...callDetailQuery(callId ?? ""), enabled: callId !== null });
  const turns = detail.data?.transcript ?? [];
  return (
    <Dialog
      open={callId !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Call transcript"
      description={title}
      className="sm:max-w-lg"
      testId="call-transcript-dialog"
    >
      {detail.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner />
        </div>
      ) : detail.isError ? (
        <ErrorState
          layout="inline"
          message={CALL_HISTORY_TEXT.failedTranscript}
          onRetry={() => void detail.refetch()}
        />
      ) : turns.length === 0 ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">
          {CALL_HISTORY_TEXT.noTranscript}
        </p>
      ) : (
        <ol className="space-y-3 text-sm">
          {turns.map((turn) => (
            <li key={turn._id} data-testid="transcript-turn" className="whitespace-pre-wrap">
              <span className="font-semibold text-stone-900 dark:text-white">
                {speakerName(turn, { you: "You", persona: settings.aiProfile.name })}:
              </span>{" "}
              <span className="text-stone-700 dark:text-stone-300">{turn.content}</span>
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  );
}
