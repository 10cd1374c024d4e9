import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  CreditPackage as AdminPackage,
  CreditPackageCreate as PackageForm,
} from "@twinline/contracts";
import { PackageOpen, Pencil, Power, Trash2 } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import toast from "react-hot-toast";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { SortableHeader, tdClasses, thClasses } from "@/components/ui/sortable-header";
import { TableScroll } from "@/components/ui/table-scroll";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { errorMessage } from "@/lib/api-client";
import { formatCount, formatMoney } from "@/lib/format";
import { discountedPrice } from "@/lib/money";
import {
  adminPackagesQuery,
  catalogueKeys,
  createPackage,
  deletePackage,
  syncPackages,
  togglePackage,
  updatePackage,
} from "../api/catalogue";
import { AddButton, SyncButton } from "./catalogue-buttons";
import { PackageFormDialog } from "./package-form-dialog";
import { ScreenHeader } from "./screen-header";
import { TypeToDeleteDialog } from "./type-to-delete-dialog";

export const PACKAGE_TEXT = {
  loadFailed: "Failed to load credit packages",
  syncFailed: "Failed to sync with Stripe",
  statusFailed: "Failed to update package status",
  createFailed: "Failed to create credit package",
  updateFailed: "Failed to update credit package",
  deleteFailed: "Failed to delete credit package",
  updated: "Credit package updated successfully",
  deleted: "Credit package deleted successfully",
  synced: "Credit Plan Sync Completed",
  missingId: "Package ID is missing",
  mismatch: "Package name does not match",
} as const;

type SortField = "credits" | "price";

function sortPackages(
  packages: AdminPackage[],
  sort: { field: SortField; ascending: boolean } | null,
): AdminPackage[] {
  if (!sort) return packages;
  const value = (p: AdminPackage) =>
    sort.field === "credits" ? p.credits : discountedPrice(p.price, p.discount);
  return [...packages].sort((a, b) => (value(a) - value(b)) * (sort.ascending ? 1 : -1));
}

function PriceCell({ pkg }: { pkg: AdminPackage }) {
  if (pkg.discount <= 0) return <span>{formatMoney(pkg.price, pkg.currency)}</span>;
  return (
    <span className="flex flex-col">
      <s className="text-xs text-stone-500 dark:text-stone-400">
        {formatMoney(pkg.price, pkg.currency)}
      </s>
      <span className="font-semibold text-stone-900 dark:text-white">
        {formatMoney(discountedPrice(pkg.price, pkg.discount), pkg.currency)}
      </span>
      <span className="text-xs text-emerald-700 dark:text-emerald-300">{pkg.discount}% off</span>
    </span>
  );
}

/**
 * /admin/ManageCredits: the packages table (sortable by Credits or Price), Sync and Add Package,
 * and the add, "Edit Credit Package" and "Delete Credit Package" modals.
 */
export function AdminCreditPackagesPage() {
  const queryClient = useQueryClient();
  const packages = useQuery(adminPackagesQuery());
  const [sort, setSort] = useState<{ field: SortField; ascending: boolean } | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<AdminPackage | null>(null);
  const [deleting, setDeleting] = useState<AdminPackage | null>(null);

  useDocumentTitle("Credit Packages · Twinline Admin");
  useEffect(() => {
    if (packages.isError) toast.error(PACKAGE_TEXT.loadFailed, { id: "packages-load" });
  }, [packages.isError]);

  const rows = useMemo(() => sortPackages(packages.data ?? [], sort), [packages.data, sort]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: catalogueKeys.packages });

  const sync = useMutation({
    mutationFn: syncPackages,
    onSuccess: (answer) => {
      // Without a Stripe key nothing was synced: say so, not "synced".
      if (answer.mode === "sandbox") toast.error(answer.message);
      else toast.success(PACKAGE_TEXT.synced);
      void refresh();
    },
    onError: () => toast.error(PACKAGE_TEXT.syncFailed),
  });
  const save = useMutation({
    mutationFn: ({ id, form }: { id: string | null; form: PackageForm }) =>
      id ? updatePackage(id, form) : createPackage(form),
    onSuccess: (_answer, { id }) => {
      toast.success(id ? PACKAGE_TEXT.updated : "Credit package created successfully");
      setFormOpen(false);
      void refresh();
    },
    onError: (error, { id }) =>
      toast.error(id ? errorMessage(error, PACKAGE_TEXT.updateFailed) : PACKAGE_TEXT.createFailed),
  });
  const toggle = useMutation({
    mutationFn: (pkg: AdminPackage) => togglePackage(pkg._id),
    onSuccess: (_answer, pkg) => {
      // The row updates at once (admin-side spec, section 4).
      queryClient.setQueryData<AdminPackage[]>(catalogueKeys.packages, (old) =>
        old?.map((p) => (p._id === pkg._id ? { ...p, isActive: !pkg.isActive } : p)),
      );
      toast.success(
        pkg.isActive ? "Package deactivated successfully" : "Package activated successfully",
      );
    },
    onError: () => toast.error(PACKAGE_TEXT.statusFailed),
  });
  const remove = useMutation({
    mutationFn: (pkg: AdminPackage) => deletePackage(pkg._id),
    onSuccess: () => {
      toast.success(PACKAGE_TEXT.deleted);
      setDeleting(null);
      void refresh();
    },
    onError: (error) => toast.error(errorMessage(error, PACKAGE_TEXT.deleteFailed)),
  });

  const openForm = (pkg: AdminPackage | null) => {
    setEditing(pkg);
    setFormOpen(true);
  };
  const onSort = (field: SortField) =>
    setSort((s) =>
      s?.field === field ? { field, ascending: !s.ascending } : { field, ascending: true },
    );
  const direction = (field: SortField) =>
    sort?.field === field ? (sort.ascending ? "ascending" : "descending") : null;

  const syncButton = (
    <SyncButton label="Sync" pending={sync.isPending} onSync={() => sync.mutate()} />
  );

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <ScreenHeader
        title="Manage Credit Packages"
        description="One-off credit packages users buy, kept in step with Stripe."
      >
        {syncButton}
        <AddButton label="Add Package" onAdd={() => openForm(null)} />
      </ScreenHeader>

      {packages.isPending ? (
        <LoadingState label="Loading credit packages" />
      ) : packages.isError ? (
        <ErrorState message={PACKAGE_TEXT.loadFailed} onRetry={() => void packages.refetch()} />
      ) : rows.length === 0 ? (
        <Card className="flex flex-col items-center gap-3 px-4 py-12 text-center">
          <PackageOpen aria-hidden="true" className="size-10 text-stone-400" />
          <h2 className="font-display text-lg font-semibold text-stone-900 dark:text-white">
            No Credit Packages Found
          </h2>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Create a package, or sync the ones that already exist at Stripe.
          </p>
          <div className="flex flex-wrap justify-center gap-2">
            {syncButton}
            <AddButton label="Create Package" onAdd={() => openForm(null)} />
          </div>
        </Card>
      ) : (
        <Card className="overflow-hidden">
          <TableScroll label="Credit packages">
            <table className="min-w-full divide-y divide-stone-200 dark:divide-white/10">
              <caption className="sr-only">Credit packages</caption>
              <thead className="bg-stone-50 dark:bg-white/[0.03]">
                <tr>
                  <th scope="col" className={thClasses}>
                    Status
                  </th>
                  <th scope="col" className={thClasses}>
                    Name
                  </th>
                  <SortableHeader
                    label="Credits"
                    direction={direction("credits")}
                    onSort={() => onSort("credits")}
                  />
                  <SortableHeader
                    label="Price"
                    direction={direction("price")}
                    onSort={() => onSort("price")}
                  />
                  <th scope="col" className={thClasses}>
                    Stripe
                  </th>
                  <th scope="col" className={`${thClasses} text-right`}>
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100 dark:divide-white/5">
                {rows.map((pkg) => (
                  <tr key={pkg._id} data-testid="package-row">
                    <td className={tdClasses}>
                      <Badge tone={pkg.isActive ? "green" : "grey"}>
                        {pkg.isActive ? "Active" : "Inactive"}
                      </Badge>
                    </td>
                    <td className={`${tdClasses} whitespace-normal`}>
                      <p className="font-medium text-stone-900 dark:text-white">{pkg.name}</p>
                      {pkg.description ? (
                        <p className="max-w-xs text-xs text-stone-500 dark:text-stone-400">
                          {pkg.description}
                        </p>
                      ) : null}
                    </td>
                    <td className={`${tdClasses} tabular-nums`}>{formatCount(pkg.credits)}</td>
                    <td className={tdClasses}>
                      <PriceCell pkg={pkg} />
                    </td>
                    <td className={`${tdClasses} font-mono text-xs`}>
                      {pkg.stripeProductId ? (
                        <span className="flex flex-col">
                          <span>{pkg.stripeProductId}</span>
                          <span className="text-stone-500 dark:text-stone-400">
                            {pkg.stripePriceId ?? "—"}
                          </span>
                        </span>
                      ) : (
                        <span className="font-sans text-stone-500 dark:text-stone-400">
                          Not synced
                        </span>
                      )}
                    </td>
                    <td className={`${tdClasses} text-right`}>
                      <div className="flex justify-end gap-1">
                        <button
                          type="button"
                          onClick={() => toggle.mutate(pkg)}
                          disabled={toggle.isPending && toggle.variables?._id === pkg._id}
                          aria-label={`${pkg.isActive ? "Deactivate" : "Activate"} ${pkg.name}`}
                          title={pkg.isActive ? "Deactivate" : "Activate"}
                          className={buttonClasses("ghost", "sm")}
                        >
                          <Power aria-hidden="true" className="size-4" />
                        </button>
                        <button
                          type="button"
                          onClick={() => openForm(pkg)}
                          aria-label={`Edit ${pkg.name}`}
                          title="Edit"
                          className={buttonClasses("ghost", "sm")}
                        >
                          <Pencil aria-hidden="true" className="size-4" />
                        </button>
                        <button
                          type="button"
                          onClick={() => setDeleting(pkg)}
                          aria-label={`Delete ${pkg.name}`}
                          title="Delete"
                          className={buttonClasses("ghost", "sm", "text-red-700 dark:text-red-300")}
                        >
                          <Trash2 aria-hidden="true" className="size-4" />
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </Card>
      )}

      <PackageFormDialog
        open={formOpen}
        pkg={editing}
        pending={save.isPending}
        onClose={() => setFormOpen(false)}
        onSubmit={(form) => {
          if (editing && !editing._id) {
            toast.error(PACKAGE_TEXT.missingId);
            return;
          }
          save.mutate({ id: editing?._id ?? null, form });
        }}
      />
      <TypeToDeleteDialog
        open={deleting !== null}
        title="Delete Credit Package"
        name={deleting?.name ?? ""}
        description="The package is removed and deactivated at Stripe. Earlier purchasers are unaffected."
        mismatch={PACKAGE_TEXT.mismatch}
        pending={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </div>
  );
}
