import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminSettings } from "@twinline/contracts";
import { useCallback } from "react";
import { SETTINGS_QUERY_KEY } from "@/lib/settings";
import { adminSettingsKeys, saveSettings } from "../api/settings";

/**
 * Takes the settings a write answered with into the admin's cache (or refetches when the answer
 * carried none) and marks the public settings stale, so the user side shows the change.
 */
export function useApplySettings() {
  const queryClient = useQueryClient();
  return useCallback(
    (settings: AdminSettings | null) => {
      if (settings) queryClient.setQueryData(adminSettingsKeys.all, settings);
      else void queryClient.invalidateQueries({ queryKey: adminSettingsKeys.all });
      void queryClient.invalidateQueries({ queryKey: SETTINGS_QUERY_KEY });
    },
    [queryClient],
  );
}

/** The latest admin settings in the cache (a save builds its full body on them). */
export function useLatestSettings() {
  const queryClient = useQueryClient();
  return useCallback(
    () => queryClient.getQueryData<AdminSettings>(adminSettingsKeys.all),
    [queryClient],
  );
}

export function useSaveSettings() {
  const apply = useApplySettings();
  return useMutation({ mutationFn: saveSettings, onSuccess: apply });
}
