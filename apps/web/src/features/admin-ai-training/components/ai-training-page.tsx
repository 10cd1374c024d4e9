import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type AiTraining,
  SYSTEM_PROMPT_MAX,
  updateSystemPromptRequestSchema,
} from "@twinline/contracts";
import { useId } from "react";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast";
import { buttonClasses } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/field";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { PageHeader } from "@/components/ui/page-header";
import { Section } from "@/components/ui/section";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { useSavedTick } from "@/hooks/use-saved-tick";
import { errorMessage } from "@/lib/api-client";
import { formatCount } from "@/lib/format";
import {
  AI_TRAINING_MESSAGES,
  aiTrainingKeys,
  aiTrainingQuery,
  saveSystemPrompt,
} from "../api/ai-training";
import { KnowledgeDocuments } from "./knowledge-documents";
import { BusyLabel } from "./ui";
import { VoiceCloneSection, VoiceIdSection, VoiceSampleSection } from "./voice-sections";

/** /admin/AITraining: system prompt, knowledge documents, voice sample, voice id, voice clone. */
export function AdminAiTrainingPage() {
  const training = useQuery(aiTrainingQuery());

  useDocumentTitle("AI Training · Twinline Admin");

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeader
        title="AI Training"
        description="Who the persona is, what it knows and how it sounds."
      />
      {training.isPending ? (
        <LoadingState label="Loading AI Training data" />
      ) : training.isError ? (
        <ErrorState message={AI_TRAINING_MESSAGES.loadFailed} onRetry={() => training.refetch()} />
      ) : (
        <>
          <SystemPromptSection initial={training.data.systemPrompt} />
          <KnowledgeDocuments documents={training.data.knowledgeDocuments} />
          <VoiceSampleSection sample={training.data.voiceSample} />
          <VoiceIdSection voiceId={training.data.voiceId} />
          <VoiceCloneSection hasSample={training.data.voiceSample !== null} />
        </>
      )}
    </div>
  );
}

function SystemPromptSection({ initial }: { initial: string }) {
  const queryClient = useQueryClient();
  const id = useId();
  const {
    register,
    handleSubmit,
    watch,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(updateSystemPromptRequestSchema),
    defaultValues: { systemPrompt: initial },
    // An error shows until the next change or the next save.
    reValidateMode: "onSubmit",
  });
  const value = watch("systemPrompt");
  const error = errors.systemPrompt?.message ?? errors.root?.server?.message ?? null;
  const [saved, showSaved] = useSavedTick();
  const save = useMutation({
    mutationFn: saveSystemPrompt,
    onSuccess: (message, systemPrompt) => {
      queryClient.setQueryData<AiTraining>(aiTrainingKeys.all, (old) =>
        old ? { ...old, systemPrompt } : old,
      );
      toast.success(message || "System prompt saved successfully");
      showSaved();
    },
    onError: (failure) => {
      const message = errorMessage(failure, AI_TRAINING_MESSAGES.saveFailed);
      setError("root.server", { message });
      toast.error(message);
    },
  });

  const onSubmit = handleSubmit(({ systemPrompt }) => save.mutate(systemPrompt));

  const over = value.length > SYSTEM_PROMPT_MAX;
  return (
    <Section
      title="System Prompt"
      description="The persona's instructions: who it is, how it talks, what it avoids."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-3">
        <label htmlFor={id} className="sr-only">
          System prompt
        </label>
        <textarea
          id={id}
          rows={10}
          aria-invalid={error || over ? true : undefined}
          aria-describedby={`${id}-count${error ? ` ${id}-error` : ""}`}
          {...register("systemPrompt", { onChange: () => clearErrors() })}
          placeholder="You are ... Speak warmly, keep answers short, never ..."
          className={`${inputClasses} h-auto min-h-48 py-2.5 font-mono text-sm leading-relaxed sm:text-sm`}
        />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p
            id={`${id}-count`}
            className={
              over
                ? "text-xs text-red-600 dark:text-red-400"
                : "text-xs text-stone-500 dark:text-stone-400"
            }
          >
            {formatCount(value.length)} / {formatCount(SYSTEM_PROMPT_MAX)} characters
          </p>
          <button
            type="submit"
            disabled={save.isPending}
            className={buttonClasses("primary", "md", "w-full sm:w-auto")}
          >
            <BusyLabel busy={save.isPending} done={saved} busyText="Saving...">
              Save System Prompt
            </BusyLabel>
          </button>
        </div>
        {error && (
          <p id={`${id}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
      </form>
    </Section>
  );
}
