import { Badge } from "@/components/ui/badge";

export function AccountStatusBadge({ isActive }: { isActive: boolean }) {
  return <Badge tone={isActive ? "green" : "red"}>{isActive ? "Active" : "Inactive"}</Badge>;
}
