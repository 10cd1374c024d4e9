import { useMutation, useQueryClient } from "@tanstack/react-query";
import toast from "react-hot-toast";
import { adminUsersKeys } from "../api/users";

/**
 * A money action of the user details page: on success the server's message is toasted and the
 * user, the lists and the transactions are reloaded. Errors stay with the dialog (it shows the
 * server's reason in place, so the operator can correct the amount or reason and retry).
 */
export function useMoneyAction<Input, Output extends { message: string }>(
  run: (input: Input) => Promise<Output>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async (answer) => {
      toast.success(answer.message);
      await queryClient.invalidateQueries({ queryKey: adminUsersKeys.all });
    },
  });
}
