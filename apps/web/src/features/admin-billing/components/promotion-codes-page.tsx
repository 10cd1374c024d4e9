import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type CreatePromotionCodeRequest,
  PROMOTION_APPLIES_TO,
  type PromotionCode,
} from "@twinline/contracts";
import { Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { FormDialog } from "@/components/ui/form-dialog";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { Pager } from "@/components/ui/pager";
import { TableScroll } from "@/components/ui/table-scroll";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { errorMessage } from "@/lib/api-client";
import { formatDate, formatMoney } from "@/lib/format";
import {
  createPromotionCode,
  promotionCodesQuery,
  promotionKeys,
  setPromotionCodeActive,
} from "../api/promotions";
import { CurrencyField, type Option, SelectField } from "./form-controls";
import { ScreenHeader } from "./screen-header";

export const PROMOTIONS_TEXT = {
  title: "Promotion Codes",
  description:
    "Codes fans enter at checkout: a percentage or an amount off the first payment, for packages, plans or both.",
  add: "Add Promotion Code",
  empty: "No promotion codes yet",
  failed: "Failed to load promotion codes",
  createFailed: "Failed to create the promotion code",
  changeFailed: "Failed to update the promotion code",
} as const;

const KIND_OPTIONS: Option[] = [
  { value: "percent", label: "Percentage off" },
  { value: "amount", label: "Amount off" },
];
const APPLIES_LABELS: Record<(typeof PROMOTION_APPLIES_TO)[number], string> = {
  packages: "Credit packages",
  plans: "Subscription plans",
  both: "Packages and plans",
};
const APPLIES_OPTIONS: Option[] = PROMOTION_APPLIES_TO.map((value) => ({
  value,
  label: APPLIES_LABELS[value],
}));

const offText = (code: PromotionCode) =>
  code.kind === "percent"
    ? `${code.percentOff}%`
    : formatMoney(code.amountOff ?? 0, code.currency ?? "usd");

/** A week from now, as the date-time input shows it (local time). */
function defaultExpiry(): string {
  const at = new Date(Date.now() + 7 * 86_400_000);
  at.setSeconds(0, 0);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

interface Form {
  code: string;
  kind: "percent" | "amount";
  percentOff: string;
  amountOff: string;
  currency: string;
  appliesTo: string;
  maxRedemptions: string;
  expiresAt: string;
}
const emptyForm = (): Form => ({
  code: "",
  kind: "percent",
  percentOff: "",
  amountOff: "",
  currency: "usd",
  appliesTo: "both",
  maxRedemptions: "",
  expiresAt: defaultExpiry(),
});

function CreateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(emptyForm);
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: CreatePromotionCodeRequest) => createPromotionCode(body),
    onSuccess: (answer) => {
      toast.success(answer.message ?? "Promotion code created");
      void queryClient.invalidateQueries({ queryKey: promotionKeys.all });
      setForm(emptyForm());
      setError(null);
      onClose();
    },
    onError: (failure) => setError(errorMessage(failure, PROMOTIONS_TEXT.createFailed)),
  });
  const set = (key: keyof Form) => (event: { target: { value: string } }) =>
    setForm((old) => ({ ...old, [key]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const expires = new Date(form.expiresAt);
    create.mutate({
      code: form.code,
      kind: form.kind,
      percentOff: form.kind === "percent" && form.percentOff ? Number(form.percentOff) : null,
      amountOff: form.kind === "amount" && form.amountOff ? Number(form.amountOff) : null,
      currency:
        form.kind === "amount" ? (form.currency as CreatePromotionCodeRequest["currency"]) : null,
      appliesTo: form.appliesTo as CreatePromotionCodeRequest["appliesTo"],
      maxRedemptions: form.maxRedemptions ? Number(form.maxRedemptions) : null,
      expiresAt: Number.isNaN(expires.getTime()) ? form.expiresAt : expires.toISOString(),
    });
  };
  return (
    <FormDialog
      open={open}
      title={PROMOTIONS_TEXT.add}
      description="Each fan can use a code once; it lowers the first payment only."
      pending={create.isPending}
      submitLabel="Create Code"
      onSubmit={submit}
      onClose={() => {
        setError(null);
        onClose();
      }}
      testId="promotion-code-dialog"
    >
      <TextField label="Code" value={form.code} onChange={set("code")} maxLength={32} required />
      <SelectField
        label="Discount type"
        options={KIND_OPTIONS}
        value={form.kind}
        onChange={set("kind")}
      />
      {form.kind === "percent" ? (
        <TextField
          label="Percent off"
          type="number"
          min={0.01}
          max={99.99}
          step={0.01}
          value={form.percentOff}
          onChange={set("percentOff")}
        />
      ) : (
        <>
          <TextField
            label="Amount off"
            type="number"
            min={0.01}
            step={0.01}
            value={form.amountOff}
            onChange={set("amountOff")}
          />
          <CurrencyField value={form.currency} onChange={set("currency")} />
        </>
      )}
      <SelectField
        label="Applies to"
        options={APPLIES_OPTIONS}
        value={form.appliesTo}
        onChange={set("appliesTo")}
      />
      <TextField
        label="Maximum redemptions"
        type="number"
        min={1}
        step={1}
        value={form.maxRedemptions}
        onChange={set("maxRedemptions")}
        hint="Leave empty for no limit"
      />
      <TextField
        label="Expires"
        type="datetime-local"
        value={form.expiresAt}
        onChange={set("expiresAt")}
      />
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </FormDialog>
  );
}

/** /admin/promotion-codes (issue 27 item 4): the codes, their uses, create and disable. */
export function AdminPromotionCodesPage() {
  useDocumentTitle(PROMOTIONS_TEXT.title);
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const query = useQuery(promotionCodesQuery(page));
  const toggle = useMutation({
    mutationFn: (code: PromotionCode) => setPromotionCodeActive(code._id, !code.isActive),
    onSuccess: (answer) => {
      toast.success(answer.message ?? "Saved");
      void queryClient.invalidateQueries({ queryKey: promotionKeys.all });
    },
    onError: (failure) => toast.error(errorMessage(failure, PROMOTIONS_TEXT.changeFailed)),
  });
  const rows = query.data?.data ?? [];
  const now = Date.now();

  return (
    <div className="space-y-6">
      <ScreenHeader title={PROMOTIONS_TEXT.title} description={PROMOTIONS_TEXT.description}>
        <button
          type="button"
          className={buttonClasses("primary", "md")}
          onClick={() => setAdding(true)}
        >
          <Plus aria-hidden="true" className="size-4" />
          {PROMOTIONS_TEXT.add}
        </button>
      </ScreenHeader>
      <Card className="overflow-hidden">
        {query.isPending ? (
          <LoadingState label="Loading promotion codes" />
        ) : query.isError ? (
          <ErrorState message={PROMOTIONS_TEXT.failed} onRetry={() => void query.refetch()} />
        ) : rows.length === 0 ? (
          <p className="px-4 py-10 text-center text-sm text-stone-600 dark:text-stone-400">
            {PROMOTIONS_TEXT.empty}
          </p>
        ) : (
          <TableScroll label={PROMOTIONS_TEXT.title} testId="promotion-codes-table">
            <table className="w-full text-left text-sm">
              <thead className="bg-stone-50 text-xs uppercase text-stone-500 dark:bg-white/5 dark:text-stone-400">
                <tr>
                  {["Code", "Discount", "Applies to", "Used", "Expires", "Status", ""].map((h) => (
                    <th key={h} scope="col" className="px-4 py-3 font-medium">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-200 dark:divide-white/10">
                {rows.map((code) => {
                  const expired = Date.parse(code.expiresAt) <= now;
                  return (
                    <tr key={code._id}>
                      <td className="px-4 py-3 font-mono font-semibold">{code.code}</td>
                      <td className="px-4 py-3 tabular-nums">{offText(code)}</td>
                      <td className="px-4 py-3">{APPLIES_LABELS[code.appliesTo]}</td>
                      <td className="px-4 py-3 tabular-nums">
                        {code.redemptions}
                        {code.maxRedemptions !== null ? ` / ${code.maxRedemptions}` : ""}
                      </td>
                      <td className="px-4 py-3">{formatDate(code.expiresAt)}</td>
                      <td className="px-4 py-3">
                        {!code.isActive ? (
                          <Badge tone="grey">Disabled</Badge>
                        ) : expired ? (
                          <Badge tone="yellow">Expired</Badge>
                        ) : (
                          <Badge tone="green">Active</Badge>
                        )}
                      </td>
                      <td className="px-4 py-3 text-right">
                        <button
                          type="button"
                          className={buttonClasses("secondary", "sm")}
                          disabled={toggle.isPending}
                          onClick={() => toggle.mutate(code)}
                          aria-label={`${code.isActive ? "Disable" : "Enable"} ${code.code}`}
                        >
                          {code.isActive ? "Disable" : "Enable"}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
        )}
        {query.data && query.data.pagination.pages > 1 ? (
          <Pager page={page} pages={query.data.pagination.pages} onPage={setPage} />
        ) : null}
      </Card>
      <CreateDialog open={adding} onClose={() => setAdding(false)} />
    </div>
  );
}
