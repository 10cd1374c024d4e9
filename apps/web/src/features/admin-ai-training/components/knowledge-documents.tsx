import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AiTraining, KnowledgeDocument } from "@twinline/contracts";
import { FileText, Trash2, Upload } from "lucide-react";
import { useState } from "react";
import toast from "react-hot-toast";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Section } from "@/components/ui/section";
import { errorMessage } from "@/lib/api-client";
import { formatBytes, formatDateTime } from "@/lib/format";
import {
  AI_TRAINING_MESSAGES,
  aiTrainingKeys,
  deleteKnowledgeDocument,
  knowledgeFileError,
  uploadKnowledgeDocument,
} from "../api/ai-training";
import { useCheckedUpload } from "../hooks/use-progress-upload";
import { FileButton, UploadStatus } from "./ui";

/** Knowledge documents: the list (name, size, upload date), one-PDF uploads with progress, delete. */
export function KnowledgeDocuments({ documents }: { documents: KnowledgeDocument[] }) {
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<KnowledgeDocument | null>(null);

  const setDocuments = (change: (docs: KnowledgeDocument[]) => KnowledgeDocument[]) =>
    queryClient.setQueryData<AiTraining>(aiTrainingKeys.all, (old) =>
      old ? { ...old, knowledgeDocuments: change(old.knowledgeDocuments) } : old,
    );

  const { upload, problem, onFile } = useCheckedUpload({
    send: uploadKnowledgeDocument,
    check: knowledgeFileError,
    onDone: ({ document, message }) => {
      setDocuments((docs) => [...docs.filter((d) => d._id !== document._id), document]);
      toast.success(message || `${document.originalName} uploaded successfully`);
    },
    failure: (error, file) => {
      const fallback = AI_TRAINING_MESSAGES.uploadFailed(file.name);
      const reason = errorMessage(error, "");
      return reason ? `${fallback}: ${reason}` : fallback;
    },
  });

  const remove = useMutation({
    mutationFn: (doc: KnowledgeDocument) => deleteKnowledgeDocument(doc._id),
    onSuccess: (_result, doc) => {
      setDocuments((docs) => docs.filter((d) => d._id !== doc._id));
      toast.success(`${doc.originalName} deleted`);
      setTarget(null);
    },
    onError: (error) => {
      toast.error(errorMessage(error, AI_TRAINING_MESSAGES.deleteFailed));
    },
  });

  return (
    <Section
      title="Knowledge Documents"
      description="PDFs the persona answers from. PDF only, up to 50 MB each, one file at a time."
      aside={
        <FileButton
          label="Upload PDF"
          accept="application/pdf,.pdf"
          disabled={upload.fileName !== null}
          onFile={onFile}
          icon={<Upload aria-hidden="true" className="size-4" />}
          testId="knowledge-input"
        />
      }
    >
      <div className="space-y-3">
        <UploadStatus upload={upload} problem={problem} />
        {documents.length === 0 ? (
          <div className="rounded-xl border border-dashed border-stone-300 px-4 py-10 text-center dark:border-white/15">
            <FileText aria-hidden="true" className="mx-auto size-8 text-stone-400" />
            <p className="mt-2 font-medium text-stone-800 dark:text-stone-200">
              No knowledge documents yet
            </p>
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
              Upload a PDF with text, and the persona uses it in its answers.
            </p>
          </div>
        ) : (
          <ul
            aria-label="Knowledge documents"
            className="divide-y divide-stone-100 rounded-xl border border-stone-200 dark:divide-white/5 dark:border-white/10"
          >
            {documents.map((doc) => (
              <li
                key={doc._id}
                data-testid="knowledge-document"
                className="flex items-center gap-3 px-3 py-3 sm:px-4"
              >
                <FileText
                  aria-hidden="true"
                  className="size-5 shrink-0 text-brand-600 dark:text-brand-300"
                />
                <div className="min-w-0 flex-1">
                  <p
                    className="truncate font-medium text-stone-900 dark:text-white"
                    title={doc.originalName}
                  >
                    {doc.originalName}
                  </p>
                  <p className="mt-0.5 text-xs text-stone-500 dark:text-stone-400">
                    <span>{formatBytes(doc.size)}</span>
                    <span aria-hidden="true"> · </span>
                    <span>{formatDateTime(doc.uploadDate)}</span>
                    <span aria-hidden="true"> · </span>
                    <span>
                      {doc.passages} {doc.passages === 1 ? "passage" : "passages"}
                    </span>
                  </p>
                </div>
                <button
                  type="button"
                  onClick={() => setTarget(doc)}
                  aria-label={`Delete ${doc.originalName}`}
                  title="Delete"
                  className="inline-flex size-9 shrink-0 items-center justify-center rounded-full text-red-600 transition hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-500/10"
                >
                  <Trash2 aria-hidden="true" className="size-4.5" />
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>

      <ConfirmDialog
        open={target !== null}
        pending={remove.isPending}
        title="Delete document?"
        description={
          <>{target?.originalName} and its passages are removed; the persona stops using them.</>
        }
        confirmLabel="Delete"
        destructive
        onConfirm={() => target && remove.mutate(target)}
        onCancel={() => setTarget(null)}
      />
    </Section>
  );
}
