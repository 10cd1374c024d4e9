import { useMutation, useQueryClient } from "@tanstack/react-query";
import toast from "react-hot-toast";
import { adminUsersKeys, setUserStatus, type UserStatusAction } from "../api/users";

export interface UserStatusChange {
  userId: string;
  action: UserStatusAction;
}

/**
 * Activates or deactivates a user, then reloads the lists and the user's details.
 * Failure: "Failed to {action} user" (admin-side spec, section 8).
 */
export function useUserStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, action }: UserStatusChange) => setUserStatus(userId, action),
    onSuccess: async (message) => {
      toast.success(message);
      await queryClient.invalidateQueries({ queryKey: adminUsersKeys.all });
    },
    onError: (_error, { action }) => {
      toast.error(`Failed to ${action} user`);
    },
  });
}
