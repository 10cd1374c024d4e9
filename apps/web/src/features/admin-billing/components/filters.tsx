import { zodResolver } from "@hookform/resolvers/zod";
import { Search } from "lucide-react";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { type Option, SelectField } from "./form-controls";

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

/**
 * The part of a transaction screen's list state (its useListParams) the filters read and write:
 * empty text is no filter.
 */
interface FilteredList<Status extends string, EventType extends string> {
  params: {
    userId?: string | undefined;
    status: Status;
    eventType?: EventType | undefined;
    startDate?: string | undefined;
    endDate?: string | undefined;
  };
  filter: (patch: {
    userId: string | undefined;
    status: Status;
    eventType?: EventType;
    startDate: string | undefined;
    endDate: string | undefined;
  }) => void;
}

/** A select's value in the list's own type; one off the contract falls back to its default, "all". */
function listValue<V>(field: z.ZodType<V>, value: string): V {
  const parsed = field.safeParse(value);
  return parsed.success ? parsed.data : field.parse(undefined);
}

/**
 * The filters form of the transaction screens: user text, status (and event type), start and end
 * date. A status or event-type change applies at once; the text and dates on Search.
 */
export function FiltersForm<Status extends string, EventType extends string>({
  list,
  schema,
  textLabel,
  statuses,
  eventTypes,
  submitLabel,
}: {
  list: FilteredList<Status, EventType>;
  /** The list's contract query: it types the status and event type the form sends. */
  schema: { shape: { status: z.ZodType<Status>; eventType?: z.ZodType<EventType> } };
  textLabel: string;
  statuses: Option[];
  eventTypes?: Option[];
  submitLabel: string;
}) {
  const { params } = list;
  const values: Filters = {
    userId: params.userId ?? "",
    status: params.status ?? "all",
    eventType: params.eventType ?? "all",
    startDate: params.startDate ?? "",
    endDate: params.endDate ?? "",
  };
  const { register, handleSubmit, reset, formState, getValues } = useForm<Filters>({
    resolver: zodResolver(filtersSchema),
    defaultValues: values,
  });
  const { userId, status, eventType, startDate, endDate } = values;
  useEffect(() => {
    reset({ userId, status, eventType, startDate, endDate });
  }, [reset, userId, status, eventType, startDate, endDate]);

  const onApply = (f: Filters) => {
    const eventTypeField = schema.shape.eventType;
    list.filter({
      userId: f.userId || undefined,
      status: listValue(schema.shape.status, f.status),
      ...(eventTypeField && { eventType: listValue(eventTypeField, f.eventType) }),
      startDate: f.startDate || undefined,
      endDate: f.endDate || undefined,
    });
  };
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
          <SelectField
            label="Event Type"
            options={eventTypes}
            {...register("eventType", { onChange: applyNow })}
          />
        )}
        <SelectField
          label="Status"
          options={statuses}
          {...register("status", { onChange: applyNow })}
        />
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

/** The filters of the two payment screens, subscription and credit transactions (admin-side 2). */
export const PAYMENT_FILTERS = {
  textLabel: "User ID/Email",
  statuses: [
    { value: "all", label: "All" },
    { value: "success", label: "Success" },
    { value: "failed", label: "Failed" },
    { value: "pending", label: "Pending" },
  ],
  submitLabel: "Search",
};
