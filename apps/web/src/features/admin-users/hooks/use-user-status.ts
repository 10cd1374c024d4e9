import { useMutation, useQueryClient } from "@tanstack/react-query";
import toast from "react-hot-toast";
import { ApiError, errorMessage } from "@/lib/api-client";
import { adminUsersKeys, setUserStatus, type UserStatusAction } from "../api/users";

export interface UserStatusChange {
  userId: string;
  action: UserStatusAction;
}

/**
 * Activates or deactivates a user, then reloads the lists and the user's details.
 * Failure: the server's reason ("You cannot deactivate your own account"...), else "Failed to
 * {action} user" (admin-side spec, section 8).
 */
export function useUserStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, action }: UserStatusChange) => setUserStatus(userId, action),
    onSuccess: async (message) => {
      toast.success(message);
      await queryClient.invalidateQueries({ queryKey: adminUsersKeys.all });
    },
    onError: (error, { action }) => {
      const fallback = `Failed to ${action} user`;
      // A refusal (4xx) carries its reason; a server failure says only the fallback.
      const refused = error instanceof ApiError && error.status >= 400 && error.status < 500;
      toast.error(refused ? errorMessage(error, fallback) : fallback);
    },
  });
}
