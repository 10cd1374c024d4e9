// A subscription's invoices at Stripe, with their payments expanded (InvoiceInfo.paymentId).
import { call, orNull, type StripeDeps } from "./client.ts";
import { toInvoice } from "./mappers.ts";

export const retrieveInvoice = (deps: StripeDeps, invoiceId: string) =>
  orNull(deps, async (client) =>
    toInvoice(await client.invoices.retrieve(invoiceId, { expand: ["payments"] })),
  );

export const changeInvoice = (deps: StripeDeps, subscriptionId: string, changeKey: string) =>
  call(deps, async (client) => {
    // A change's invoice is among the subscription's newest (the sweep comes minutes later).
    const listed = await client.invoices.list({
      subscription: subscriptionId,
      limit: 20,
      expand: ["data.payments"],
    });
    const made = listed.data.find(
      (invoice) =>
        invoice.billing_reason === "subscription_update" &&
        invoice.parent?.subscription_details?.metadata?.changeKey === changeKey,
    );
    return made ? toInvoice(made) : null;
  });
