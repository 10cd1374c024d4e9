export { CreditsPage } from "./components/credits-page";
export { SandboxCheckoutPage } from "./components/sandbox-checkout-page";
export { SubscriptionDialog } from "./components/subscription-dialog";
export { TransactionsPage } from "./components/transactions-page";
