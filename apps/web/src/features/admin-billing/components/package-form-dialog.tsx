import { zodResolver } from "@hookform/resolvers/zod";
import {
  type CreditPackage as AdminPackage,
  BILLING_DEFAULTS,
  type CreditPackageCreateInput,
  CURRENCIES,
  creditPackageCreateSchema,
  type CreditPackageCreate as PackageForm,
} from "@twinline/contracts";
import { LoaderCircle } from "lucide-react";
import { useEffect } from "react";
import { type Control, useForm, useWatch } from "react-hook-form";
import { buttonClasses } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/field";
import { discountedPrice, formatMoney } from "@/lib/money";
import { CheckboxField, SelectField, TextAreaField } from "./form-controls";

/** New package default: 100 credits, 9.99 usd, discount 0 (admin-side spec, section 9). */
const DEFAULTS: CreditPackageCreateInput = {
  name: "",
  description: "",
  ...BILLING_DEFAULTS.package,
};

function toForm(pkg: AdminPackage): CreditPackageCreateInput {
  return {
    name: pkg.name,
    description: pkg.description ?? "",
    credits: pkg.credits,
    price: pkg.price,
    currency: pkg.currency,
    discount: pkg.discount,
    isActive: pkg.isActive,
  };
}

/** Original, discounted price and savings, while the discount is above 0. */
function DiscountPreview({ control }: { control: Control<CreditPackageCreateInput> }) {
  const [rawPrice, rawDiscount, currency] = useWatch({
    control,
    name: ["price", "discount", "currency"],
  });
  const price = Number(rawPrice);
  const discount = Number(rawDiscount);
  if (!(discount > 0 && discount <= 100) || !Number.isFinite(price)) return null;
  const final = discountedPrice(price, discount);
  return (
    <dl
      data-testid="discount-preview"
      className="grid grid-cols-3 gap-2 rounded-xl border border-emerald-200 bg-emerald-50 p-3 text-center text-sm dark:border-emerald-400/30 dark:bg-emerald-500/10"
    >
      <div>
        <dt className="text-xs text-stone-500 dark:text-stone-400">Original</dt>
        <dd className="font-medium text-stone-900 line-through dark:text-white">
          {formatMoney(price, currency)}
        </dd>
      </div>
      <div>
        <dt className="text-xs text-stone-500 dark:text-stone-400">Discounted</dt>
        <dd className="font-semibold text-emerald-700 dark:text-emerald-300">
          {formatMoney(final, currency)}
        </dd>
      </div>
      <div>
        <dt className="text-xs text-stone-500 dark:text-stone-400">Savings</dt>
        <dd className="font-medium text-stone-900 dark:text-white">
          {formatMoney(Math.round((price - final) * 100) / 100, currency)}
        </dd>
      </div>
    </dl>
  );
}

/** The add modal and "Edit Credit Package" (admin-side spec, sections 2 and 5). */
export function PackageFormDialog({
  open,
  pkg,
  pending,
  onSubmit,
  onClose,
}: {
  open: boolean;
  pkg: AdminPackage | null;
  pending: boolean;
  onSubmit: (form: PackageForm) => void;
  onClose: () => void;
}) {
  const form = useForm<CreditPackageCreateInput, unknown, PackageForm>({
    resolver: zodResolver(creditPackageCreateSchema),
    defaultValues: DEFAULTS,
  });
  const { register, handleSubmit, reset, formState, control } = form;
  useEffect(() => {
    if (open) reset(pkg ? toForm(pkg) : DEFAULTS);
  }, [open, pkg, reset]);
  const errors = formState.errors;
  const editing = pkg !== null;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !pending) onClose();
      }}
      title={editing ? "Edit Credit Package" : "Add Credit Package"}
      description={
        editing
          ? "A new price or currency creates a new Stripe price; earlier buyers are unaffected."
          : "The package is created at Stripe too when a Stripe key is set."
      }
      className="max-w-lg"
    >
      <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
        <TextField label="Package name" error={errors.name?.message} {...register("name")} />
        <TextAreaField label="Description" {...register("description")} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Credits"
            type="number"
            min={1}
            step={1}
            error={errors.credits?.message}
            {...register("credits", { valueAsNumber: true })}
          />
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
          <TextField
            label="Discount (%)"
            type="number"
            min={0}
            max={100}
            step={1}
            error={errors.discount?.message}
            {...register("discount", { valueAsNumber: true })}
          />
        </div>
        <DiscountPreview control={control} />
        {editing && (
          <TextField
            label="Stripe product ID"
            value={pkg?.stripeProductId ?? "Not synced with Stripe"}
            readOnly
          />
        )}
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
            {editing ? "Save Changes" : "Create Package"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
