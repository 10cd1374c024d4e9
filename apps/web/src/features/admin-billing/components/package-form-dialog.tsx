import { zodResolver } from "@hookform/resolvers/zod";
import {
  type CreditPackage as AdminPackage,
  BILLING_DEFAULTS,
  type CreditPackageCreateInput,
  creditPackageCreateSchema,
  type CreditPackageCreate as PackageForm,
} from "@twinline/contracts";
import { useEffect } from "react";
import { type Control, useForm, useWatch } from "react-hook-form";
import { TextField } from "@/components/ui/field";
import { FormDialog } from "@/components/ui/form-dialog";
import { formatMoney } from "@/lib/format";
import { discountedPrice } from "@/lib/money";
import { CheckboxField, CurrencyField, PriceField, TextAreaField } from "./form-controls";

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
    <FormDialog
      open={open}
      title={editing ? "Edit Credit Package" : "Add Credit Package"}
      description={
        editing
          ? "A new price or currency creates a new Stripe price; earlier buyers are unaffected."
          : "The package is created at Stripe too when a Stripe key is set."
      }
      pending={pending}
      submitLabel={editing ? "Save Changes" : "Create Package"}
      onSubmit={handleSubmit(onSubmit)}
      onClose={onClose}
      padded
      className="max-w-lg"
    >
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
        <PriceField error={errors.price?.message} {...register("price", { valueAsNumber: true })} />
        <CurrencyField {...register("currency")} />
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
    </FormDialog>
  );
}
