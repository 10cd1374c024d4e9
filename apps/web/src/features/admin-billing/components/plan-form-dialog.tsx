import { zodResolver } from "@hookform/resolvers/zod";
import {
  type SubscriptionPlan as AdminPlan,
  BILLING_DEFAULTS,
  CURRENCIES,
  PLAN_INTERVALS,
  type SubscriptionPlanCreate as PlanForm,
  subscriptionPlanCreateSchema,
} from "@twinline/contracts";
import { LoaderCircle } from "lucide-react";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { buttonClasses } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/field";
import { CheckboxField, SelectField, TextAreaField } from "./form-controls";

/** The contract's plan form, with the features typed one per line. */
const formSchema = subscriptionPlanCreateSchema.extend({
  features: z
    .string()
    .transform((text) => text.split("\n"))
    .pipe(subscriptionPlanCreateSchema.shape.features.unwrap()),
});
type FormInput = z.input<typeof formSchema>;

/** New plan default: price 0 usd, monthly, interval count 1, active (admin-side spec, section 9). */
const DEFAULTS: FormInput = {
  name: "",
  description: "",
  price: BILLING_DEFAULTS.plan.price,
  currency: BILLING_DEFAULTS.plan.currency,
  interval: BILLING_DEFAULTS.plan.interval,
  intervalCount: BILLING_DEFAULTS.plan.intervalCount,
  features: "",
  isActive: BILLING_DEFAULTS.plan.isActive,
  credits: BILLING_DEFAULTS.plan.credits,
};

function toInput(plan: AdminPlan): FormInput {
  return {
    name: plan.name,
    description: plan.description ?? "",
    price: plan.price,
    currency: plan.currency,
    interval: plan.interval,
    intervalCount: plan.intervalCount,
    features: plan.features.join("\n"),
    isActive: plan.isActive,
    credits: plan.credits,
  };
}

/** Add New Plan, or edit one (interval and interval count are read-only once created). */
export function PlanFormDialog({
  open,
  plan,
  pending,
  onSubmit,
  onClose,
}: {
  open: boolean;
  /** The plan being edited; null adds a new one. */
  plan: AdminPlan | null;
  pending: boolean;
  onSubmit: (form: PlanForm) => void;
  onClose: () => void;
}) {
  const form = useForm<FormInput, unknown, PlanForm>({
    resolver: zodResolver(formSchema),
    defaultValues: DEFAULTS,
  });
  const { register, handleSubmit, reset, formState } = form;
  useEffect(() => {
    if (open) reset(plan ? toInput(plan) : DEFAULTS);
  }, [open, plan, reset]);
  const editing = plan !== null;
  const errors = formState.errors;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !pending) onClose();
      }}
      title={editing ? "Edit Subscription Plan" : "Add New Plan"}
      description={
        editing
          ? "A new price applies to new subscribers; existing subscribers keep their price."
          : "The plan is created at Stripe too when a Stripe key is set."
      }
      className="max-w-lg"
    >
      <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
        <TextField label="Plan name" error={errors.name?.message} {...register("name")} />
        <TextAreaField label="Description" {...register("description")} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Price"
            type="number"
            min={0}
            step={0.01}
            error={errors.price?.message}
            {...register("price", { valueAsNumber: true })}
          />
          <SelectField label="Currency" {...register("currency")}>
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c.toUpperCase()}
              </option>
            ))}
          </SelectField>
          {editing && plan ? (
            <>
              <TextField
                label="Interval"
                value={plan.interval}
                readOnly
                hint="Fixed after creation"
              />
              <TextField
                label="Interval count"
                value={plan.intervalCount}
                readOnly
                hint="Fixed after creation"
              />
            </>
          ) : (
            <>
              <SelectField label="Interval" {...register("interval")}>
                {PLAN_INTERVALS.map((i) => (
                  <option key={i} value={i}>
                    {i}
                  </option>
                ))}
              </SelectField>
              <TextField
                label="Interval count"
                type="number"
                min={1}
                step={1}
                error={errors.intervalCount?.message}
                {...register("intervalCount", { valueAsNumber: true })}
              />
            </>
          )}
        </div>
        <TextField
          label="Credits every period"
          type="number"
          min={0}
          step={1}
          hint="Credits granted on each paid period (0 for none)"
          error={errors.credits?.message}
          {...register("credits", { valueAsNumber: true })}
        />
        <TextAreaField label="Features" hint="One feature per line" {...register("features")} />
        <CheckboxField label="Active" {...register("isActive")} />
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={onClose}
            disabled={pending}
            className={buttonClasses("secondary", "md")}
          >
            Cancel
          </button>
          <button type="submit" disabled={pending} className={buttonClasses("primary", "md")}>
            {pending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
            {editing ? "Save Changes" : "Create Plan"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
