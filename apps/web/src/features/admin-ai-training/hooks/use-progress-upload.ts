import { useCallback, useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import type { UploadProgress } from "@/lib/api-client";

export interface ProgressUpload {
  /** The file on its way, or null. */
  fileName: string | null;
  percent: number;
  start: (file: File) => void;
  cancel: () => void;
}

/**
 * Runs one upload at a time with its progress and a Cancel. `send` gets the file, a progress
 * callback and an abort signal; `onDone` and `onError` run unless the upload was cancelled.
 */
export function useProgressUpload<T>({
  send,
  onDone,
  onError,
}: {
  send: (
    file: File,
    options: { onProgress: (p: UploadProgress) => void; signal: AbortSignal },
  ) => Promise<T>;
  onDone: (result: T, file: File) => void;
  onError: (error: unknown, file: File) => void;
}): ProgressUpload {
  const [fileName, setFileName] = useState<string | null>(null);
  const [percent, setPercent] = useState(0);
  const controller = useRef<AbortController | null>(null);
  const handlers = useRef({ send, onDone, onError });
  handlers.current = { send, onDone, onError };

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback((file: File) => {
    if (controller.current) return;
    const abort = new AbortController();
    controller.current = abort;
    setFileName(file.name);
    setPercent(0);
    handlers.current
      .send(file, { onProgress: (p) => setPercent(p.percent), signal: abort.signal })
      .then(
        (result) => {
          if (!abort.signal.aborted) handlers.current.onDone(result, file);
        },
        (error: unknown) => {
          if (!abort.signal.aborted) handlers.current.onError(error, file);
        },
      )
      .finally(() => {
        if (controller.current === abort) {
          controller.current = null;
          setFileName(null);
          setPercent(0);
        }
      });
  }, []);

  const cancel = useCallback(() => {
    const current = controller.current;
    if (!current) return;
    current.abort();
    controller.current = null;
    setFileName(null);
    setPercent(0);
  }, []);

  return { fileName, percent, start, cancel };
}

/**
 * A progress upload whose file is checked first: a file `check` refuses, or an upload that
 * fails, shows its message as the section's problem and as a toast; a new file clears it.
 */
export function useCheckedUpload<T>({
  send,
  check,
  onDone,
  failure,
}: {
  send: Parameters<typeof useProgressUpload<T>>[0]["send"];
  check: (file: File) => string | null;
  onDone: (result: T, file: File) => void;
  /** The message an upload failure shows. */
  failure: (error: unknown, file: File) => string;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const report = (message: string) => {
    setProblem(message);
    toast.error(message);
  };
  const upload = useProgressUpload({
    send,
    onDone,
    onError: (error, file) => report(failure(error, file)),
  });
  function onFile(file: File) {
    const refused = check(file);
    if (refused) {
      report(refused);
      return;
    }
    setProblem(null);
    upload.start(file);
  }
  return { upload, problem, onFile };
}
