import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery } from "@tanstack/react-query";
import {
  type CheckoutSessionView as SandboxSession,
  sandboxPayRequestSchema,
} from "@twinline/contracts";
import { CreditCard, FlaskConical, LoaderCircle, Lock } from "lucide-react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { buttonClasses } from "@/components/ui/button";
import { FormMessage, TextField } from "@/components/ui/field";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { Logo } from "@/components/ui/logo";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { errorMessage } from "@/lib/api-client";
import { formatCount, formatMoney } from "@/lib/format";
import {
  cancelSandboxSession,
  paySandboxSession,
  redirectTo,
  sandboxSessionQuery,
} from "../api/billing";

type CardInput = z.input<typeof sandboxPayRequestSchema>;

function Summary({ session }: { session: SandboxSession }) {
  return (
    <div
      data-testid="sandbox-summary"
      className="rounded-2xl border border-stone-200 bg-stone-50 p-4 dark:border-white/10 dark:bg-white/5"
    >
      <p className="text-xs font-semibold tracking-wide text-stone-500 uppercase dark:text-stone-400">
        {session.mode === "subscription" ? "Subscription" : "Credit package"}
      </p>
      <p className="mt-1 font-display text-lg font-semibold text-stone-900 dark:text-white">
        {session.itemName}
      </p>
      {session.description ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">{session.description}</p>
      ) : null}
      {session.credits ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">
          {formatCount(session.credits)} credits
          {session.mode === "subscription" ? " every period" : ""}
        </p>
      ) : null}
      {session.interval ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Billed every{" "}
          {session.intervalCount && session.intervalCount > 1
            ? `${session.intervalCount} ${session.interval}s`
            : session.interval}
          , until canceled
        </p>
      ) : null}
      {session.discount > 0 ? (
        <p
          className="mt-3 flex items-baseline justify-between text-sm text-stone-600 dark:text-stone-400"
          data-testid="sandbox-discount"
        >
          <span>Discount{session.promotionCode ? ` (${session.promotionCode})` : ""}</span>
          <span>-{formatMoney(session.discount, session.currency)}</span>
        </p>
      ) : null}
      <p className="mt-3 flex items-baseline justify-between border-t border-stone-200 pt-3 dark:border-white/10">
        <span className="text-sm text-stone-600 dark:text-stone-400">Total due</span>
        <span
          data-testid="sandbox-amount"
          className="font-display text-2xl font-bold text-stone-900 dark:text-white"
        >
          {formatMoney(session.amount, session.currency)}
        </span>
      </p>
    </div>
  );
}

function CardForm({ session }: { session: SandboxSession }) {
  const { register, handleSubmit, formState } = useForm<
    CardInput,
    unknown,
    z.output<typeof sandboxPayRequestSchema>
  >({
    resolver: zodResolver(sandboxPayRequestSchema),
    defaultValues: { cardNumber: "", expiry: "", cvc: "" },
  });
  const pay = useMutation({
    mutationFn: (card: z.output<typeof sandboxPayRequestSchema>) =>
      paySandboxSession(session.sessionId, card),
    onSuccess: (url) => redirectTo.go(url),
  });
  const cancel = useMutation({
    mutationFn: () => cancelSandboxSession(session.sessionId),
    onSuccess: (url) => redirectTo.go(url),
    onError: () => redirectTo.go(session.cancelUrl),
  });
  const errors = formState.errors;
  const busy = pay.isPending || cancel.isPending || pay.isSuccess;
  return (
    <form onSubmit={handleSubmit((card) => pay.mutate(card))} noValidate className="space-y-4">
      {pay.isError && (
        <FormMessage>{errorMessage(pay.error, "Your card was declined.")}</FormMessage>
      )}
      <TextField
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        error={errors.cardNumber?.message}
        {...register("cardNumber")}
      />
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label="Expiry"
          autoComplete="cc-exp"
          placeholder="MM / YY"
          error={errors.expiry?.message}
          {...register("expiry")}
        />
        <TextField
          label="CVC"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          error={errors.cvc?.message}
          {...register("cvc")}
        />
      </div>
      <button type="submit" disabled={busy} className={buttonClasses("primary", "lg", "w-full")}>
        {pay.isPending || pay.isSuccess ? (
          <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
        ) : (
          <Lock aria-hidden="true" className="size-5" />
        )}
        Pay {formatMoney(session.amount, session.currency)}
      </button>
      <p className="text-center">
        <a
          href={session.cancelUrl}
          onClick={(event) => {
            event.preventDefault();
            if (!busy) cancel.mutate();
          }}
          className="text-sm font-medium text-stone-600 underline-offset-4 hover:underline dark:text-stone-300"
        >
          Cancel and return
        </a>
      </p>
    </form>
  );
}

/**
 * /checkout/sandbox/:sessionId: the offline checkout (no Stripe key). Clearly a test page: the
 * test card 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined. Paying fulfils through the
 * same code path as Stripe's webhook, then goes to the success return page.
 */
export function SandboxCheckoutPage({ sessionId }: { sessionId: string }) {
  const session = useQuery(sandboxSessionQuery(sessionId));
  useDocumentTitle("Test Checkout · Twinline");
  return (
    <div className="min-h-dvh bg-stone-50 px-3 py-8 sm:py-16 dark:bg-stone-950">
      <div className="mx-auto max-w-md space-y-5">
        <div className="flex justify-center">
          <Logo />
        </div>
        <div
          role="note"
          className="flex items-start gap-2 rounded-xl border border-amber-300 bg-amber-50 px-3.5 py-2.5 text-sm text-amber-900 dark:border-amber-400/40 dark:bg-amber-500/10 dark:text-amber-200"
        >
          <FlaskConical aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            <strong>Test checkout (sandbox).</strong> No real payment is made. Use the test card
            4242 4242 4242 4242 with any future expiry and any CVC; 4000 0000 0000 0002 is declined.
          </span>
        </div>
        <main className="rounded-3xl border border-stone-200 bg-white p-5 shadow-xl sm:p-7 dark:border-white/10 dark:bg-stone-900">
          <h1 className="flex items-center gap-2 font-display text-2xl font-bold text-stone-900 dark:text-white">
            <CreditCard aria-hidden="true" className="size-6" />
            Sandbox Checkout
          </h1>
          <div className="mt-5 space-y-5">
            {session.isPending ? (
              <LoadingState label="Loading checkout" />
            ) : session.isError ? (
              <ErrorState
                layout="compact"
                message={errorMessage(session.error, "This checkout could not be loaded.")}
                onRetry={() => void session.refetch()}
              />
            ) : session.data.status !== "open" ? (
              <div className="space-y-4 text-center">
                <p role="status" className="text-stone-700 dark:text-stone-300">
                  {session.data.status === "complete"
                    ? "This checkout is already paid."
                    : session.data.status === "canceled"
                      ? "This checkout was canceled. Nothing was charged."
                      : "This checkout has expired. Nothing was charged."}
                </p>
                <a
                  href={
                    session.data.status === "complete"
                      ? session.data.successUrl
                      : session.data.cancelUrl
                  }
                  className={buttonClasses("secondary", "md")}
                >
                  Return to the app
                </a>
              </div>
            ) : (
              <>
                <Summary session={session.data} />
                <CardForm session={session.data} />
              </>
            )}
          </div>
        </main>
      </div>
    </div>
  );
}
