import * as Tabs from "@radix-ui/react-tabs";
import { useSearchParams } from "react-router";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { TRANSACTIONS_PAGE_SIZE } from "../api/billing";
import { CreditActivityList } from "./credit-activity-list";
import { TransactionsList } from "./transactions-list";

const TABS = [
  { value: "credits", label: "Credit Purchases" },
  { value: "subscriptions", label: "Subscription Payments" },
  { value: "activity", label: "Credit Activity" },
] as const;
type Tab = (typeof TABS)[number]["value"];

/** /dashboard/transactions: Credit Purchases and Subscription Payments, 10 per page each. */
export function TransactionsPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const tab: Tab = TABS.find((t) => t.value === requested)?.value ?? "credits";
  useDocumentTitle("Transaction History · Twinline");
  return (
    <div className="space-y-6">
      <PageHeader
        title="Transaction History"
        description="Every credit purchase, subscription payment and credit movement of your account."
      />
      <Tabs.Root
        value={tab}
        onValueChange={(next) =>
          setParams(next === "credits" ? {} : { tab: next }, { replace: true })
        }
      >
        <Tabs.List
          aria-label="Transactions"
          className="flex gap-1 overflow-x-auto border-b border-stone-200 dark:border-white/10"
        >
          {TABS.map((t) => (
            <Tabs.Trigger
              key={t.value}
              value={t.value}
              className="-mb-px shrink-0 border-b-2 border-transparent px-3 py-2.5 text-sm font-medium whitespace-nowrap text-stone-600 transition hover:text-stone-900 data-[state=active]:border-brand-600 data-[state=active]:text-brand-700 dark:text-stone-400 dark:hover:text-white dark:data-[state=active]:border-brand-400 dark:data-[state=active]:text-brand-300"
            >
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="credits" className="pt-6">
          <Card className="overflow-hidden">
            <TransactionsList
              kind="credits"
              title="Credit Purchases"
              pageSize={TRANSACTIONS_PAGE_SIZE}
              errorMessage="Failed to load credit transactions"
            />
          </Card>
        </Tabs.Content>
        <Tabs.Content value="subscriptions" className="pt-6">
          <Card className="overflow-hidden">
            <TransactionsList
              kind="subscriptions"
              title="Subscription Payments"
              pageSize={TRANSACTIONS_PAGE_SIZE}
              errorMessage="Failed to load subscription transactions"
            />
          </Card>
        </Tabs.Content>
        <Tabs.Content value="activity" className="pt-6">
          <Card className="overflow-hidden">
            <CreditActivityList pageSize={TRANSACTIONS_PAGE_SIZE} />
          </Card>
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
