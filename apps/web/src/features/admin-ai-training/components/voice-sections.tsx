import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type AiTraining,
  generateVoiceCloneRequestSchema,
  updateVoiceIdRequestSchema,
  type VoiceSample,
} from "@twinline/contracts";
import { Mic, Pencil, Sparkles, Upload } from "lucide-react";
import { type FormEvent, useEffect, useId, useState } from "react";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast";
import { buttonClasses } from "@/components/ui/button";
import { inputClasses, TextField } from "@/components/ui/field";
import { Section } from "@/components/ui/section";
import { errorMessage } from "@/lib/api-client";
import { formatBytes, formatDateTime } from "@/lib/format";
import {
  AI_TRAINING_MESSAGES,
  aiTrainingKeys,
  fetchVoiceSampleAudio,
  generateVoiceClone,
  updateVoiceId,
  uploadVoiceSample,
  voiceFileError,
} from "../api/ai-training";
import { useCheckedUpload } from "../hooks/use-progress-upload";
import { BusyLabel, FileButton, UploadStatus } from "./ui";

function useSetTraining() {
  const queryClient = useQueryClient();
  return (change: (old: AiTraining) => AiTraining) =>
    queryClient.setQueryData<AiTraining>(aiTrainingKeys.all, (old) => (old ? change(old) : old));
}

/** The voice sample: what is stored, its playback, and an upload (mp3, wav, webm; 100 MB). */
export function VoiceSampleSection({ sample }: { sample: VoiceSample | null }) {
  const setTraining = useSetTraining();
  const { upload, problem, onFile } = useCheckedUpload({
    send: uploadVoiceSample,
    check: voiceFileError,
    onDone: ({ sample: next, message }) => {
      setTraining((old) => ({ ...old, voiceSample: next }));
      toast.success(message || "Voice sample uploaded successfully");
    },
    failure: (error) => errorMessage(error, AI_TRAINING_MESSAGES.voiceUploadFailed),
  });

  return (
    <Section
      title="Voice Sample"
      description="A clear recording of the persona's voice, for cloning. MP3, WAV or WebM, up to 100 MB."
      aside={
        <FileButton
          label={sample ? "Replace Sample" : "Upload Sample"}
          accept="audio/mpeg,audio/wav,audio/webm,.mp3,.wav,.webm"
          disabled={upload.fileName !== null}
          onFile={onFile}
          icon={<Upload aria-hidden="true" className="size-4" />}
          testId="voice-sample-input"
        />
      }
    >
      <div className="space-y-3">
        <UploadStatus upload={upload} problem={problem} />
        {sample ? (
          <div
            data-testid="voice-sample"
            className="rounded-xl border border-stone-200 p-3 sm:p-4 dark:border-white/10"
          >
            <p className="flex items-center gap-2 font-medium break-all text-stone-900 dark:text-white">
              <Mic
                aria-hidden="true"
                className="size-4 shrink-0 text-brand-600 dark:text-brand-300"
              />
              {sample.originalName}
            </p>
            <p className="mt-0.5 text-xs text-stone-500 dark:text-stone-400">
              {formatBytes(sample.size)} · {formatDateTime(sample.uploadDate)}
            </p>
            <SamplePlayer sample={sample} />
          </div>
        ) : (
          <p className="rounded-xl border border-dashed border-stone-300 px-4 py-8 text-center text-sm text-stone-600 dark:border-white/15 dark:text-stone-400">
            No voice sample yet. Upload one to generate a voice clone.
          </p>
        )}
      </div>
    </Section>
  );
}

/** Plays the stored sample: fetched with the admin token as a blob, played from an object URL. */
function SamplePlayer({ sample }: { sample: VoiceSample }) {
  const audio = useQuery({
    queryKey: aiTrainingKeys.voiceAudio(`${sample.filename}:${sample.uploadDate}`),
    queryFn: ({ signal }) => fetchVoiceSampleAudio(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!audio.data) return;
    const next = URL.createObjectURL(audio.data);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [audio.data]);

  if (audio.isError) {
    return (
      <p className="mt-3 text-sm text-red-600 dark:text-red-400">
        The voice sample could not be loaded.{" "}
        <button type="button" onClick={() => audio.refetch()} className="font-medium underline">
          Try again
        </button>
      </p>
    );
  }
  if (!url) {
    return <p className="mt-3 text-sm text-stone-500 dark:text-stone-400">Loading the sample...</p>;
  }
  return (
    // biome-ignore lint/a11y/useMediaCaption: a voice sample of the persona, no captions exist
    <audio
      controls
      src={url}
      preload="metadata"
      aria-label={`Play ${sample.originalName}`}
      className="mt-3 w-full"
    />
  );
}

/** The voice the persona speaks with: display mode, and edit mode to enter one by hand. */
export function VoiceIdSection({ voiceId }: { voiceId: string | null }) {
  const setTraining = useSetTraining();
  const [editing, setEditing] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(updateVoiceIdRequestSchema),
    defaultValues: { voiceId: voiceId ?? "" },
    reValidateMode: "onSubmit",
  });
  const error = errors.voiceId?.message ?? errors.root?.server?.message;
  const inputId = useId();
  const save = useMutation({
    mutationFn: updateVoiceId,
    onSuccess: (answer) => {
      setTraining((old) => ({ ...old, voiceId: answer.voiceId }));
      toast.success(answer.message || "Voice ID updated successfully");
      setEditing(false);
    },
    onError: (failure) =>
      setError("root.server", {
        message: errorMessage(failure, AI_TRAINING_MESSAGES.voiceIdFailed),
      }),
  });

  const onSubmit = handleSubmit((values) => save.mutate(values.voiceId));

  return (
    <Section
      title="Voice ID"
      description="The ElevenLabs voice the persona speaks with: cloned below, or entered by hand."
    >
      {editing ? (
        <form onSubmit={onSubmit} noValidate className="space-y-3">
          <TextField
            label="Voice ID"
            id={inputId}
            autoFocus
            spellCheck={false}
            autoComplete="off"
            error={error}
            {...register("voiceId", { onChange: () => clearErrors() })}
            onKeyDown={(event) => {
              if (event.key === "Escape") setEditing(false);
            }}
          />
          <div className="flex flex-wrap gap-2">
            <button
              type="submit"
              disabled={save.isPending}
              className={buttonClasses("primary", "sm")}
            >
              <BusyLabel busy={save.isPending} busyText="Saving...">
                Save Voice ID
              </BusyLabel>
            </button>
            <button
              type="button"
              onClick={() => setEditing(false)}
              className={buttonClasses("secondary", "sm")}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p data-testid="voice-id" className="min-w-0 break-all">
            {voiceId ? (
              <code className="rounded-lg bg-stone-100 px-2 py-1 font-mono text-sm text-stone-900 dark:bg-white/10 dark:text-white">
                {voiceId}
              </code>
            ) : (
              <span className="text-sm text-stone-600 dark:text-stone-400">No voice ID set</span>
            )}
          </p>
          <button
            type="button"
            onClick={() => {
              reset({ voiceId: voiceId ?? "" });
              setEditing(true);
            }}
            className={buttonClasses("secondary", "sm")}
          >
            <Pencil aria-hidden="true" className="size-4" />
            {voiceId ? "Edit Voice ID" : "Set Voice ID"}
          </button>
        </div>
      )}
    </Section>
  );
}

/** Generate Voice Clone from the stored sample (needs one first). */
export function VoiceCloneSection({ hasSample }: { hasSample: boolean }) {
  const setTraining = useSetTraining();
  const nameId = useId();
  const descriptionId = useId();
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(generateVoiceCloneRequestSchema),
    defaultValues: { name: "", description: "" },
    reValidateMode: "onSubmit",
  });
  const error =
    errors.name?.message ?? errors.description?.message ?? errors.root?.server?.message ?? null;
  const clone = useMutation({
    mutationFn: generateVoiceClone,
    onSuccess: (answer) => {
      setTraining((old) => ({
        ...old,
        voiceId: answer.voiceId,
        voiceSample: old.voiceSample ? { ...old.voiceSample, voiceId: answer.voiceId } : null,
      }));
      toast.success(answer.message || "Voice clone generated successfully");
    },
    onError: (failure) => {
      const message = errorMessage(failure, AI_TRAINING_MESSAGES.cloneFailed);
      setError("root.server", { message });
      toast.error(message);
    },
  });

  const send = handleSubmit((values) => clone.mutate(values));
  function onSubmit(event: FormEvent) {
    // A clone needs a sample: said before the fields are checked.
    if (!hasSample) {
      event.preventDefault();
      // Said once, beside the button (a toast as well showed it twice: issue 24).
      setError("root.server", { message: AI_TRAINING_MESSAGES.needSample });
      return;
    }
    void send(event);
  }

  return (
    <Section
      title="Voice Clone"
      description="Creates an ElevenLabs voice from the voice sample and makes it the persona's voice."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <TextField
          label="Voice Name"
          id={nameId}
          maxLength={100}
          {...register("name", { onChange: () => clearErrors() })}
        />
        <div>
          <label
            htmlFor={descriptionId}
            className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200"
          >
            Description{" "}
            <span className="font-normal text-stone-500 dark:text-stone-400">(optional)</span>
          </label>
          <textarea
            id={descriptionId}
            rows={2}
            maxLength={500}
            {...register("description")}
            className={`${inputClasses} h-auto py-2.5`}
          />
        </div>
        {error && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
        {!hasSample && !error && (
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Upload a voice sample above first.
          </p>
        )}
        <button
          type="submit"
          disabled={clone.isPending}
          className={buttonClasses("primary", "md", "w-full sm:w-auto")}
        >
          <BusyLabel
            busy={clone.isPending}
            busyText="Generating..."
            icon={<Sparkles aria-hidden="true" className="size-4" />}
          >
            Generate Voice Clone
          </BusyLabel>
        </button>
      </form>
    </Section>
  );
}
