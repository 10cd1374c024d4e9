export { AdminCreditPackagesPage } from "./components/credit-packages-page";
export { AdminCreditTransactionsPage } from "./components/credit-transactions-page";
export { AdminPlansPage } from "./components/plans-page";
export { AdminPromotionCodesPage } from "./components/promotion-codes-page";
export { AdminSubscriptionHistoryPage } from "./components/subscription-history-page";
export { AdminSubscriptionTransactionsPage } from "./components/subscription-transactions-page";
