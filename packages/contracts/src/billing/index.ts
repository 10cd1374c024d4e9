// Billing's contracts, split as the server's billing module is: catalogue, checkout,
// subscriptions, transactions and refunds, over the shared constants and field rules.
export * from "./catalogue";
export * from "./checkout";
export * from "./consent";
export { billingIdParamsSchema, packageIdParamsSchema, planIdParamsSchema } from "./fields";
export * from "./low-balance";
export * from "./payment-details";
export * from "./promotions";
export * from "./refunds";
export * from "./shared";
export * from "./subscriptions";
export * from "./transactions";
export * from "./trial";
export * from "./withdrawal";
