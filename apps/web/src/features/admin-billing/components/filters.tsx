import { zodResolver } from "@hookform/resolvers/zod";
import { Search } from "lucide-react";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { SelectField } from "./form-controls";

const filtersSchema = z
  .object({
    userId: z.string().trim(),
    status: z.string(),
    eventType: z.string(),
    startDate: z.string(),
    endDate: z.string(),
  })
  .refine((f) => !f.startDate || !f.endDate || f.startDate <= f.endDate, {
    path: ["endDate"],
    error: "End date must be on or after the start date",
  });
export type Filters = z.infer<typeof filtersSchema>;

export interface Option {
  value: string;
  label: string;
}

/**
 * The filters form of the transaction screens: user text, status (and event type), start and end
 * date. A status or event-type change applies at once; the text and dates on Search.
 */
export function FiltersForm({
  values,
  textLabel,
  statuses,
  eventTypes,
  submitLabel,
  onApply,
}: {
  values: Filters;
  textLabel: string;
  statuses: Option[];
  eventTypes?: Option[];
  submitLabel: string;
  onApply: (filters: Filters) => void;
}) {
  const { register, handleSubmit, reset, formState, getValues } = useForm<Filters>({
    resolver: zodResolver(filtersSchema),
    defaultValues: values,
  });
  const { userId, status, eventType, startDate, endDate } = values;
  useEffect(() => {
    reset({ userId, status, eventType, startDate, endDate });
  }, [reset, userId, status, eventType, startDate, endDate]);

  const applyNow = () => onApply(getValues());

  return (
    <Card className="p-4">
      <form
        onSubmit={handleSubmit(onApply)}
        noValidate
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_1fr_auto] lg:items-end"
        aria-label="Filters"
      >
        <TextField label={textLabel} type="search" {...register("userId")} />
        {eventTypes && (
          <SelectField label="Event Type" {...register("eventType", { onChange: applyNow })}>
            {eventTypes.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </SelectField>
        )}
        <SelectField label="Status" {...register("status", { onChange: applyNow })}>
          {statuses.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </SelectField>
        <TextField label="Start Date" type="date" {...register("startDate")} />
        <TextField
          label="End Date"
          type="date"
          error={formState.errors.endDate?.message}
          {...register("endDate")}
        />
        <button type="submit" className={buttonClasses("primary", "md", "h-11")}>
          <Search aria-hidden="true" className="size-4" />
          {submitLabel}
        </button>
      </form>
    </Card>
  );
}

export const TRANSACTION_STATUSES: Option[] = [
  { value: "all", label: "All" },
  { value: "success", label: "Success" },
  { value: "failed", label: "Failed" },
  { value: "pending", label: "Pending" },
];
