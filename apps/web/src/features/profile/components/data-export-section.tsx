import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Download, FileArchive, LoaderCircle } from "lucide-react";
import { useState } from "react";
import toast from "react-hot-toast";
import { buttonClasses } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/load-states";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api-client";
import { downloadFile } from "@/lib/csv";
import { formatDateTime } from "@/lib/format";
import { dataExportQuery, downloadDataExport, requestDataExport } from "../api/privacy-api";
import { PRIVACY_TEXT } from "../messages";
import { ProfileCard } from "./profile-card";

/**
 * "Download my data": asks for the ZIP (built in the background, announced by e-mail), shows
 * its state while it is prepared, and downloads it while it is ready (7 days).
 */
export function DataExportSection() {
  const client = useQueryClient();
  const latest = useQuery(dataExportQuery());
  const [saving, setSaving] = useState(false);
  const ask = useMutation({
    mutationFn: requestDataExport,
    onSuccess: (answer) => {
      client.setQueryData(dataExportQuery().queryKey, answer.data);
      toast.success(answer.message);
    },
    onError: (error) => toast.error(errorMessage(error, PRIVACY_TEXT.exportAskFailed)),
  });
  const data = latest.data;
  const building = data?.status === "queued" || data?.status === "running";

  const save = async (id: string) => {
    setSaving(true);
    try {
      const blob = await downloadDataExport(id);
      downloadFile.save(`twinline-data-${(data?.createdAt ?? "").slice(0, 10)}.zip`, blob);
    } catch (error) {
      toast.error(errorMessage(error, PRIVACY_TEXT.exportDownloadFailed));
      void latest.refetch();
    } finally {
      setSaving(false);
    }
  };

  return (
    <ProfileCard
      icon={<FileArchive aria-hidden="true" className="size-5" />}
      title={PRIVACY_TEXT.exportTitle}
      description={PRIVACY_TEXT.exportDescription}
    >
      {latest.isPending ? (
        <Spinner />
      ) : latest.isError ? (
        <ErrorState
          layout="inline"
          message={PRIVACY_TEXT.exportLoadFailed}
          onRetry={() => void latest.refetch()}
        />
      ) : (
        <div className="space-y-4" data-testid="data-export-section">
          <p role="status" className="text-sm text-stone-700 dark:text-stone-300">
            {!data
              ? PRIVACY_TEXT.exportNone
              : building
                ? PRIVACY_TEXT.exportQueued
                : data.status === "ready"
                  ? PRIVACY_TEXT.exportReady(formatDateTime(data.expiresAt, ""))
                  : data.status === "failed"
                    ? PRIVACY_TEXT.exportFailed
                    : PRIVACY_TEXT.exportExpired}
          </p>
          <div className="flex flex-wrap gap-3">
            {data?.status === "ready" ? (
              <button
                type="button"
                className={buttonClasses("primary", "md")}
                disabled={saving}
                onClick={() => void save(data._id)}
              >
                <Download aria-hidden="true" className="size-4" />
                {saving ? PRIVACY_TEXT.exportSaving : PRIVACY_TEXT.exportSaveButton}
              </button>
            ) : null}
            <button
              type="button"
              className={buttonClasses(data?.status === "ready" ? "secondary" : "primary", "md")}
              disabled={ask.isPending || building}
              onClick={() => ask.mutate()}
            >
              {building ? (
                <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
              ) : (
                <FileArchive aria-hidden="true" className="size-4" />
              )}
              {ask.isPending ? PRIVACY_TEXT.exportAsking : PRIVACY_TEXT.exportButton}
            </button>
          </div>
        </div>
      )}
    </ProfileCard>
  );
}
