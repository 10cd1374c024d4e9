import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  SubscriptionPlan as AdminPlan,
  SubscriptionPlanCreate as PlanForm,
} from "@twinline/contracts";
import { Check, Pencil, Power, Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { errorMessage } from "@/lib/api-client";
import { formatCount, formatMoney } from "@/lib/format";
import {
  adminPlansQuery,
  catalogueKeys,
  createPlan,
  deletePlan,
  syncPlans,
  togglePlan,
  truncateId,
  updatePlan,
} from "../api/catalogue";
import { AddButton, SyncButton } from "./catalogue-buttons";
import { PlanFormDialog } from "./plan-form-dialog";
import { ScreenHeader } from "./screen-header";
import { TypeToDeleteDialog } from "./type-to-delete-dialog";

export const PLAN_TEXT = {
  loadFailed: "Failed to load subscription plans",
  syncFailed: "Failed to sync plans with Stripe",
  statusFailed: "Failed to update plan status",
  createFailed: "Failed to create subscription plan",
  updateFailed: "Failed to update subscription plan",
  deleteFailed: "Failed to delete subscription plan",
  missingId: "Missing plan ID",
} as const;

/** The delete dialog warns, with the count, when people are subscribed (decision 0049). */
export function deleteWarning(plan: AdminPlan | null): string {
  const base =
    "The plan is removed and its Stripe product deactivated. Existing subscriptions keep working.";
  const n = plan?.subscriberCount ?? 0;
  if (n === 0) return base;
  const who = n === 1 ? "1 active subscriber" : `${formatCount(n)} active subscribers`;
  return `This plan has ${who}: they keep their subscription and price until they cancel, and no one new can subscribe. ${base}`;
}

function interval(plan: AdminPlan): string {
  return plan.intervalCount === 1 ? plan.interval : `${plan.intervalCount} ${plan.interval}s`;
}

function IdLine({ label, id }: { label: string; id: string | null }) {
  const shown = truncateId(id);
  return (
    <div className="flex justify-between gap-3 text-xs">
      <dt className="text-stone-500 dark:text-stone-400">{label}</dt>
      <dd className="font-mono text-stone-700 dark:text-stone-300" title={id ?? undefined}>
        {shown ?? "Not synced"}
      </dd>
    </div>
  );
}

function PlanCard({
  plan,
  busy,
  onEdit,
  onDelete,
  onToggle,
}: {
  plan: AdminPlan;
  busy: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onToggle: () => void;
}) {
  return (
    <Card className="flex flex-col p-5" data-testid="plan-card">
      <div className="flex items-start justify-between gap-3">
        <h2 className="font-display text-lg font-semibold break-words text-stone-900 dark:text-white">
          {plan.name}
        </h2>
        <Badge tone={plan.isActive ? "green" : "grey"}>
          {plan.isActive ? "Active" : "Inactive"}
        </Badge>
      </div>
      <p className="mt-2 font-display text-2xl font-bold text-stone-900 dark:text-white">
        {formatMoney(plan.price, plan.currency)}
        <span className="ml-1 text-sm font-medium text-stone-500 dark:text-stone-400">
          / {interval(plan)}
        </span>
      </p>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400" data-testid="plan-subscribers">
        {formatCount(plan.subscriberCount)} active{" "}
        {plan.subscriberCount === 1 ? "subscriber" : "subscribers"}
      </p>
      {plan.description ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{plan.description}</p>
      ) : null}
      {plan.features.length > 0 && (
        <ul className="mt-3 space-y-1 text-sm text-stone-700 dark:text-stone-300">
          {plan.features.map((f) => (
            <li key={f} className="flex gap-2">
              <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
              {f}
            </li>
          ))}
        </ul>
      )}
      <dl className="mt-4 space-y-1 border-t border-stone-100 pt-3 dark:border-white/5">
        <IdLine label="ID" id={plan._id} />
        <IdLine label="Stripe product" id={plan.stripeProductId} />
        <IdLine label="Stripe price" id={plan.stripePriceId} />
      </dl>
      <div className="mt-auto flex flex-wrap gap-2 pt-4">
        <button
          type="button"
          onClick={onEdit}
          aria-label={`Edit ${plan.name}`}
          className={buttonClasses("secondary", "sm")}
        >
          <Pencil aria-hidden="true" className="size-4" />
          Edit
        </button>
        <button
          type="button"
          onClick={onToggle}
          disabled={busy}
          aria-label={`${plan.isActive ? "Deactivate" : "Activate"} ${plan.name}`}
          className={buttonClasses("secondary", "sm")}
        >
          <Power aria-hidden="true" className="size-4" />
          {plan.isActive ? "Deactivate" : "Activate"}
        </button>
        <button
          type="button"
          onClick={onDelete}
          aria-label={`Delete ${plan.name}`}
          className={buttonClasses("secondary", "sm", "text-red-700 dark:text-red-300")}
        >
          <Trash2 aria-hidden="true" className="size-4" />
          Delete
        </button>
      </div>
    </Card>
  );
}

/**
 * /admin/subscriptions: the plans as cards, Sync with Stripe, Add New Plan, and per plan edit,
 * delete (typing the name) and activate/deactivate.
 */
export function AdminPlansPage() {
  const queryClient = useQueryClient();
  const plans = useQuery(adminPlansQuery());
  const [editing, setEditing] = useState<AdminPlan | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<AdminPlan | null>(null);

  useDocumentTitle("Subscription Plans · Twinline Admin");
  useEffect(() => {
    if (plans.isError) toast.error(PLAN_TEXT.loadFailed, { id: "plans-load" });
  }, [plans.isError]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: catalogueKeys.plans });

  const sync = useMutation({
    mutationFn: syncPlans,
    onSuccess: (answer) => {
      // Without a Stripe key nothing was synced: say so, not "synced".
      if (answer.mode === "sandbox") toast.error(answer.message);
      else toast.success(answer.message || "Plans synced with Stripe");
      void refresh();
    },
    onError: () => toast.error(PLAN_TEXT.syncFailed),
  });
  const save = useMutation({
    mutationFn: ({ id, form }: { id: string | null; form: PlanForm }) =>
      id ? updatePlan(id, form) : createPlan(form),
    onSuccess: (answer, { id }) => {
      toast.success(
        answer.message ||
          (id
            ? "Subscription plan updated successfully"
            : "Subscription plan created successfully"),
      );
      setFormOpen(false);
      void refresh();
    },
    onError: (error, { id }) =>
      toast.error(errorMessage(error, id ? PLAN_TEXT.updateFailed : PLAN_TEXT.createFailed)),
  });
  const toggle = useMutation({
    mutationFn: (plan: AdminPlan) => togglePlan(plan._id),
    onSuccess: (answer, plan) => {
      toast.success(
        answer.message ||
          (plan.isActive ? "Plan deactivated successfully" : "Plan activated successfully"),
      );
      void refresh();
    },
    onError: () => toast.error(PLAN_TEXT.statusFailed),
  });
  const remove = useMutation({
    mutationFn: (plan: AdminPlan) => deletePlan(plan._id),
    onSuccess: (answer) => {
      toast.success(answer.message || "Subscription plan deleted successfully");
      setDeleting(null);
      void refresh();
    },
    onError: (error) => toast.error(errorMessage(error, PLAN_TEXT.deleteFailed)),
  });

  const openForm = (plan: AdminPlan | null) => {
    setEditing(plan);
    setFormOpen(true);
  };

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <ScreenHeader
        title="Subscription Plans"
        description="Recurring plans, kept in step with Stripe products and prices."
      >
        <SyncButton
          label="Sync with Stripe"
          pending={sync.isPending}
          onSync={() => sync.mutate()}
        />
        <AddButton label="Add New Plan" onAdd={() => openForm(null)} />
      </ScreenHeader>

      {plans.isPending ? (
        <LoadingState label="Loading subscription plans" />
      ) : plans.isError ? (
        <ErrorState message={PLAN_TEXT.loadFailed} onRetry={() => void plans.refetch()} />
      ) : plans.data.length === 0 ? (
        <Card className="px-4 py-12 text-center">
          <h2 className="font-display text-lg font-semibold text-stone-900 dark:text-white">
            No Subscription Plans Found
          </h2>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            Add a plan, or sync the plans that already exist at Stripe.
          </p>
        </Card>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {plans.data.map((plan) => (
            <PlanCard
              key={plan._id}
              plan={plan}
              busy={toggle.isPending && toggle.variables?._id === plan._id}
              onEdit={() => openForm(plan)}
              onDelete={() => setDeleting(plan)}
              onToggle={() => toggle.mutate(plan)}
            />
          ))}
        </div>
      )}

      <PlanFormDialog
        open={formOpen}
        plan={editing}
        pending={save.isPending}
        onClose={() => setFormOpen(false)}
        onSubmit={(form) => save.mutate({ id: editing?._id ?? null, form })}
      />
      <TypeToDeleteDialog
        open={deleting !== null}
        title="Delete Subscription Plan"
        name={deleting?.name ?? ""}
        description={deleteWarning(deleting)}
        mismatch="Plan name does not match"
        pending={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting?._id) {
            toast.error(PLAN_TEXT.missingId);
            return;
          }
          remove.mutate(deleting);
        }}
      />
    </div>
  );
}
