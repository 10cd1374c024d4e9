import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { PageTabs, TabPanel } from "@/components/ui/page-tabs";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { useTabParam } from "@/hooks/use-tab-param";
import { TRANSACTIONS_PAGE_SIZE } from "../api/billing";
import { CreditActivityList } from "./credit-activity-list";
import { TransactionsList } from "./transactions-list";

const TABS = [
  { value: "credits", label: "Credit Purchases" },
  { value: "subscriptions", label: "Subscription Payments" },
  { value: "activity", label: "Credit Activity" },
] as const;

/** /dashboard/transactions: Credit Purchases and Subscription Payments, 10 per page each. */
export function TransactionsPage() {
  const [tab, setTab] = useTabParam(TABS);
  useDocumentTitle("Transaction History · Twinline");
  return (
    <div className="space-y-6">
      <PageHeader
        title="Transaction History"
        description="Every credit purchase, subscription payment and credit movement of your account."
      />
      <PageTabs label="Transactions" tabs={TABS} value={tab} onValueChange={setTab}>
        <TabPanel value="credits">
          <Card className="overflow-hidden">
            <TransactionsList
              kind="credits"
              title="Credit Purchases"
              pageSize={TRANSACTIONS_PAGE_SIZE}
              errorMessage="Failed to load credit transactions"
              withdrawals
            />
          </Card>
        </TabPanel>
        <TabPanel value="subscriptions">
          <Card className="overflow-hidden">
            <TransactionsList
              kind="subscriptions"
              title="Subscription Payments"
              pageSize={TRANSACTIONS_PAGE_SIZE}
              errorMessage="Failed to load subscription transactions"
              withdrawals
            />
          </Card>
        </TabPanel>
        <TabPanel value="activity">
          <Card className="overflow-hidden">
            <CreditActivityList pageSize={TRANSACTIONS_PAGE_SIZE} />
          </Card>
        </TabPanel>
      </PageTabs>
    </div>
  );
}
