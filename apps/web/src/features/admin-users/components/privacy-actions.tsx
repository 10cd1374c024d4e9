import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type AdminUserDetail, DELETE_CONFIRMATION_WORD } from "@twinline/contracts";
import { Download, FileArchive, Trash2 } from "lucide-react";
import { useState } from "react";
import toast from "react-hot-toast";
import { useNavigate } from "react-router";
import { buttonClasses } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { FormDialog } from "@/components/ui/form-dialog";
import { errorMessage } from "@/lib/api-client";
import { downloadFile } from "@/lib/csv";
import { formatDateTime } from "@/lib/format";
import {
  adminDataExportQuery,
  deleteUserAccount,
  downloadUserDataExport,
  requestUserDataExport,
} from "../api/privacy";
import { adminUsersKeys } from "../api/users";

const EXPORT_STATE: Record<string, string> = {
  queued: "Data export: being prepared",
  running: "Data export: being prepared",
  failed: "Data export: failed",
  expired: "Data export: expired",
};

/**
 * On a fan's request (issue 26): produce their data export and hand it over, or delete their
 * account. Both are recorded in the audit log.
 */
export function PrivacyActions({ user }: { user: AdminUserDetail }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const latest = useQuery(adminDataExportQuery(user._id));
  const [deleting, setDeleting] = useState(false);
  const [word, setWord] = useState("");
  const ask = useMutation({
    mutationFn: () => requestUserDataExport(user._id),
    onSuccess: (answer) => {
      client.setQueryData(adminDataExportQuery(user._id).queryKey, answer.data);
      toast.success(answer.message);
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to request the data export")),
  });
  const save = useMutation({
    mutationFn: (exportId: string) => downloadUserDataExport(user._id, exportId),
    onSuccess: (blob) => downloadFile.save(`twinline-data-${user._id.slice(0, 8)}.zip`, blob),
    onError: (error) => toast.error(errorMessage(error, "Failed to download the data export")),
  });
  const remove = useMutation({
    mutationFn: () => deleteUserAccount(user._id),
    onSuccess: (answer) => {
      toast.success(answer.message);
      void client.invalidateQueries({ queryKey: adminUsersKeys.all });
      navigate("/admin/users", { replace: true });
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to delete the account")),
  });
  const data = latest.data;
  const building = data?.status === "queued" || data?.status === "running";
  const small = buttonClasses("secondary", "sm");
  if (user.role === "admin") return null;

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="privacy-actions">
      {data?.status === "ready" ? (
        <button
          type="button"
          className={small}
          disabled={save.isPending}
          onClick={() => save.mutate(data._id)}
          title={`Ready until ${formatDateTime(data.expiresAt, "")}`}
        >
          <Download aria-hidden="true" className="size-4" />
          {save.isPending ? "Downloading..." : "Download data export"}
        </button>
      ) : data ? (
        <span role="status" className="text-xs text-stone-600 dark:text-stone-400">
          {EXPORT_STATE[data.status]}
        </span>
      ) : null}
      <button
        type="button"
        className={small}
        disabled={ask.isPending || building}
        onClick={() => ask.mutate()}
      >
        <FileArchive aria-hidden="true" className="size-4" />
        Export data
      </button>
      <button
        type="button"
        className={`${small} text-red-700 dark:text-red-300`}
        onClick={() => setDeleting(true)}
      >
        <Trash2 aria-hidden="true" className="size-4" />
        Delete account
      </button>
      <FormDialog
        open={deleting}
        title="Delete this account?"
        description={`${user.name}'s account is deleted for good, on their request: messages, calls, memory and uploads are erased, any subscription is canceled now, payment records stay without name or e-mail.`}
        pending={remove.isPending}
        submitLabel="Delete account"
        submitDisabled={word !== DELETE_CONFIRMATION_WORD}
        destructive
        onSubmit={(event) => {
          event.preventDefault();
          if (word === DELETE_CONFIRMATION_WORD) remove.mutate();
        }}
        onClose={() => {
          setDeleting(false);
          setWord("");
        }}
        testId="admin-delete-account-dialog"
      >
        <TextField
          label="Type DELETE to confirm"
          autoComplete="off"
          spellCheck={false}
          value={word}
          onChange={(event) => setWord(event.target.value)}
        />
      </FormDialog>
    </div>
  );
}
