import { zodResolver } from "@hookform/resolvers/zod";
import {
  type SubscriptionPlan as AdminPlan,
  BILLING_DEFAULTS,
  MAX_TRIAL_DAYS,
  PLAN_INTERVALS,
  type SubscriptionPlanCreate as PlanForm,
  subscriptionPlanCreateSchema,
} from "@twinline/contracts";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { TextField } from "@/components/ui/field";
import { FormDialog } from "@/components/ui/form-dialog";
import {
  CheckboxField,
  CurrencyField,
  type Option,
  PriceField,
  SelectField,
  TextAreaField,
} from "./form-controls";

/** The contract's plan form, with the features typed one per line. */
const formSchema = subscriptionPlanCreateSchema.extend({
  features: z
    .string()
    .transform((text) => text.split("\n"))
    .pipe(subscriptionPlanCreateSchema.shape.features.unwrap()),
});
type FormInput = z.input<typeof formSchema>;

const INTERVAL_OPTIONS: Option[] = PLAN_INTERVALS.map((i) => ({ value: i, label: i }));

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
  trialDays: 0,
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
    trialDays: plan.trialDays,
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
    <FormDialog
      open={open}
      title={editing ? "Edit Subscription Plan" : "Add New Plan"}
      description={
        editing
          ? "A new price applies to new subscribers; existing subscribers keep their price."
          : "The plan is created at Stripe too when a Stripe key is set."
      }
      pending={pending}
      submitLabel={editing ? "Save Changes" : "Create Plan"}
      onSubmit={handleSubmit(onSubmit)}
      onClose={onClose}
      padded
      className="max-w-lg"
    >
      <TextField label="Plan name" error={errors.name?.message} {...register("name")} />
      <TextAreaField label="Description" {...register("description")} />
      <div className="grid gap-4 sm:grid-cols-2">
        <PriceField error={errors.price?.message} {...register("price", { valueAsNumber: true })} />
        <CurrencyField {...register("currency")} />
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
            <SelectField label="Interval" options={INTERVAL_OPTIONS} {...register("interval")} />
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
      <TextField
        label="Free trial days"
        type="number"
        min={0}
        max={MAX_TRIAL_DAYS}
        step={1}
        hint={`A fan's first subscription starts with this many free days (0 for none, at most ${MAX_TRIAL_DAYS})`}
        error={errors.trialDays?.message}
        {...register("trialDays", { valueAsNumber: true })}
      />
      <TextAreaField label="Features" hint="One feature per line" {...register("features")} />
      <CheckboxField label="Active" {...register("isActive")} />
    </FormDialog>
  );
}
