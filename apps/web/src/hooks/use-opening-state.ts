import { useEffect, useState } from "react";

/**
 * A dialog field's state, back to `initial` each time the dialog opens: what was typed before
 * it was last closed does not come back.
 */
export function useOpeningState<T>(open: boolean, initial: T) {
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    if (open) setValue(initial);
  }, [open, initial]);
  return [value, setValue] as const;
}
