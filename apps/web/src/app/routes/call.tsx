import { DateOfBirthGate } from "@/features/auth/components/date-of-birth-gate";
import { CallPage } from "@/features/voice-call";

/** `/dashboard/call`: the call screen, after the date of birth of an older account (decision 0054). */
export function CallRoute() {
  return (
    <DateOfBirthGate>
      <CallPage />
    </DateOfBirthGate>
  );
}
