import { useMutation } from "@tanstack/react-query";
import { LoaderCircle } from "lucide-react";
import { useId, useState } from "react";
import { buttonClasses } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/field";
import { ApiError } from "@/lib/api-client";
import { formatMoney } from "@/lib/format";
import { checkPromotionCode, type PromotionQuote } from "../api/billing";

export const PROMOTION_TEXT = {
  label: "Promotion code",
  apply: "Apply",
  remove: "Remove",
  discount: "Discount",
  total: "Total",
  failed: "Could not check the promotion code",
} as const;

/**
 * The checkout's optional promotion code (issue 27 item 4): checked on the server before paying,
 * the lowered total shown; the reason when it does not apply. `onChange` gets the applied code
 * and its quote (null: none).
 */
export function PromotionCodeField({
  target,
  disabled,
  onChange,
}: {
  target: { packageId: string } | { planId: string };
  disabled?: boolean;
  onChange: (applied: PromotionQuote | null) => void;
}) {
  const [text, setText] = useState("");
  const [applied, setApplied] = useState<PromotionQuote | null>(null);
  const inputId = useId();
  const errorId = useId();
  const check = useMutation({
    mutationFn: (code: string) => checkPromotionCode(code, target),
    onSuccess: (quote) => {
      setApplied(quote);
      onChange(quote);
    },
    onError: () => {
      setApplied(null);
      onChange(null);
    },
  });
  const error = check.isError
    ? check.error instanceof ApiError && check.error.status === 400
      ? check.error.message
      : PROMOTION_TEXT.failed
    : null;

  return (
    <div className="space-y-2" data-testid="promotion-code">
      <label htmlFor={inputId} className="text-sm font-medium text-stone-800 dark:text-stone-200">
        {PROMOTION_TEXT.label}
      </label>
      <div className="flex gap-2">
        <input
          id={inputId}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (applied) {
              setApplied(null);
              onChange(null);
            }
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter" && text.trim()) {
              event.preventDefault();
              check.mutate(text.trim());
            }
          }}
          autoComplete="off"
          maxLength={32}
          disabled={disabled || check.isPending}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={inputClasses}
        />
        {applied ? (
          <button
            type="button"
            className={buttonClasses("secondary", "md")}
            disabled={disabled}
            onClick={() => {
              setText("");
              setApplied(null);
              check.reset();
              onChange(null);
            }}
          >
            {PROMOTION_TEXT.remove}
          </button>
        ) : (
          <button
            type="button"
            onClick={() => check.mutate(text.trim())}
            className={buttonClasses("secondary", "md")}
            disabled={disabled || check.isPending || !text.trim()}
          >
            {check.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
            {PROMOTION_TEXT.apply}
          </button>
        )}
      </div>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
      {applied ? (
        <dl className="space-y-1 text-sm" data-testid="promotion-quote" aria-live="polite">
          <div className="flex justify-between text-stone-600 dark:text-stone-400">
            <dt>
              {PROMOTION_TEXT.discount} ({applied.code})
            </dt>
            <dd>-{formatMoney(applied.discount, applied.currency)}</dd>
          </div>
          <div className="flex justify-between font-semibold text-stone-900 dark:text-white">
            <dt>{PROMOTION_TEXT.total}</dt>
            <dd>
              <s className="mr-2 font-normal text-stone-500">
                {formatMoney(applied.amountBeforeDiscount, applied.currency)}
              </s>
              {formatMoney(applied.amount, applied.currency)}
            </dd>
          </div>
        </dl>
      ) : null}
    </div>
  );
}
