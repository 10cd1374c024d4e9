import type { ReactNode } from "react";
import { PageHeader } from "@/components/ui/page-header";

/** A billing screen's title and description, its buttons beside them (under them on phones). */
export function ScreenHeader({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <PageHeader title={title} description={description} />
      <div className="flex flex-wrap gap-2">{children}</div>
    </div>
  );
}
