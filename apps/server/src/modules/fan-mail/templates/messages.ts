import { moneyText } from "../../../lib/money.ts";
import type { FanEmailKind, FanEmailPayloads, ReceiptPayload } from "../kinds.ts";
import { formatMailDate, formatMailDateTime, type MailContent } from "./layout.ts";

/** What a message needs besides its payload: who it is for and where the app is. */
export interface MessageContext {
  /** The fan's name ("" for mail to the operator). */
  name: string;
  siteName: string;
  /** PUBLIC_URL: every link in a mail starts with it. */
  publicUrl: string;
}

type Builder<K extends FanEmailKind> = (
  payload: FanEmailPayloads[K],
  context: MessageContext,
) => MailContent;

const greeting = (context: MessageContext) => (context.name ? `Hello ${context.name},` : "Hello,");
/** Where a fan sees their credits, plans and subscription and cancels it. */
const billingUrl = (context: MessageContext) => `${context.publicUrl}/dashboard/credits`;
const transactionsUrl = (context: MessageContext) => `${context.publicUrl}/dashboard/transactions`;

const HOW_TO_CANCEL =
  "You can cancel at any time in your dashboard (Credits & plans, Cancel subscription): the plan then stays until the end of the period you paid for and does not renew.";

function receipt(payload: ReceiptPayload, context: MessageContext, renewal: boolean): MailContent {
  const amount = moneyText(payload.amountMinor, payload.currency);
  const details: Array<[string, string]> = [
    ["Item", payload.item],
    ["Amount", amount],
    ["Currency", payload.currency.toUpperCase()],
    ["Date", formatMailDate(payload.paidAt)],
    ["Transaction ID", payload.transactionId],
  ];
  if (payload.credits > 0) details.splice(1, 0, ["Credits added", String(payload.credits)]);
  if (payload.discountMinor && payload.discountMinor > 0) {
    const code = payload.promotionCode ? ` (${payload.promotionCode})` : "";
    details.splice(details.length - 3, 0, [
      `Discount${code}`,
      `-${moneyText(payload.discountMinor, payload.currency)}`,
    ]);
  }
  if (payload.periodEnd) details.push(["Paid until", formatMailDate(payload.periodEnd)]);
  const subscription = payload.purchase === "subscription";
  return {
    subject: renewal
      ? `Your ${payload.item} subscription renewed: receipt`
      : `Your receipt from ${context.siteName}`,
    heading: renewal ? "Your subscription renewed" : "Thank you for your payment",
    paragraphs: [
      greeting(context),
      renewal
        ? `Your ${payload.item} subscription renewed and we received ${amount}.`
        : `We received your payment of ${amount} for ${payload.item}.`,
    ],
    details,
    action: { label: "See your transactions", url: transactionsUrl(context) },
    notes: subscription
      ? [HOW_TO_CANCEL]
      : ["This was a one-off purchase: nothing renews and nothing more will be charged."],
  };
}

const BUILDERS: { [K in FanEmailKind]: Builder<K> } = {
  receipt: (payload, context) => receipt(payload, context, false),
  renewal_receipt: (payload, context) => receipt(payload, context, true),

  payment_failed: (payload, context) => {
    const amount = moneyText(payload.amountMinor, payload.currency);
    const subscription = payload.purchase === "subscription";
    return {
      subject: `Your payment of ${amount} did not go through`,
      heading: "Your payment failed",
      paragraphs: [
        greeting(context),
        `We could not take your payment of ${amount} for ${payload.item}.${payload.reason ? ` The bank said: ${payload.reason}` : ""}`,
        subscription
          ? "What to do: make sure your card has funds and has not expired, or update it in your dashboard. We will try the payment again; if it keeps failing, the subscription stops."
          : "Nothing was charged. What to do: try again with another card from your dashboard.",
      ],
      details: [
        ["Item", payload.item],
        ["Amount", amount],
        ["Date", formatMailDate(payload.failedAt)],
        ["Reference", payload.transactionId],
      ],
      action: { label: "Open your dashboard", url: billingUrl(context) },
    };
  },

  subscription_canceled: (payload, context) => ({
    subject: `Your ${payload.planName} subscription is canceled`,
    heading: "Your cancellation is confirmed",
    paragraphs: [
      greeting(context),
      `Your ${payload.planName} subscription will not renew. You keep it until ${formatMailDate(payload.periodEnd)}; nothing more will be charged.`,
      "Changed your mind? You can resume it from your dashboard before that day.",
    ],
    details: [
      ["Plan", payload.planName],
      ["Ends on", formatMailDate(payload.periodEnd)],
    ],
    action: { label: "Manage your subscription", url: billingUrl(context) },
  }),

  subscription_resumed: (payload, context) => ({
    subject: `Your ${payload.planName} subscription is active again`,
    heading: "Your subscription will renew",
    paragraphs: [
      greeting(context),
      `Your ${payload.planName} subscription is no longer canceled: it renews on ${formatMailDate(payload.periodEnd)}.`,
    ],
    details: [
      ["Plan", payload.planName],
      ["Next renewal", formatMailDate(payload.periodEnd)],
    ],
    action: { label: "Manage your subscription", url: billingUrl(context) },
    notes: [HOW_TO_CANCEL],
  }),

  renewal_reminder: (payload, context) => {
    const amount = moneyText(payload.amountMinor, payload.currency);
    return {
      subject: `Your ${payload.planName} plan renews on ${formatMailDate(payload.renewsAt)}`,
      heading: "Your yearly plan renews soon",
      paragraphs: [
        greeting(context),
        `Your ${payload.planName} subscription renews on ${formatMailDate(payload.renewsAt)} and ${amount} will be charged to your saved card.`,
      ],
      details: [
        ["Plan", payload.planName],
        ["Amount", amount],
        ["Renewal date", formatMailDate(payload.renewsAt)],
      ],
      action: { label: "Manage your subscription", url: billingUrl(context) },
      notes: [`Don't want it to renew? ${HOW_TO_CANCEL}`],
    };
  },

  withdrawal_confirmation: (payload, context) => {
    const amount = moneyText(payload.amountMinor, payload.currency);
    return {
      subject: `Your withdrawal from ${payload.item} is confirmed`,
      heading: "Your withdrawal is confirmed",
      paragraphs: [
        greeting(context),
        `You withdrew from ${payload.item}. ${amount} is refunded to the card you paid with; banks usually show it within 5 to 10 days.`,
        ...(payload.endsPlan ? ["Your plan has ended and will not be charged again."] : []),
      ],
      details: [
        ["Item", payload.item],
        ["Refund", amount],
        ...(payload.creditsRemoved > 0
          ? [["Credits removed", String(payload.creditsRemoved)] as [string, string]]
          : []),
        ["Date and time", formatMailDateTime(payload.withdrawnAt)],
        ["Transaction ID", payload.transactionId],
      ],
      action: { label: "See your transactions", url: transactionsUrl(context) },
    };
  },

  low_balance: (payload, context) => ({
    subject: "Your credits are running low",
    heading: "Your credits are running low",
    paragraphs: [
      greeting(context),
      `You have ${payload.balance} credits left: less than one minute of a voice call (${payload.creditsPerMinute} credits a minute).`,
    ],
    action: { label: "Get more credits", url: billingUrl(context) },
  }),

  contact_message: (payload, context) => ({
    subject: `Contact form: message from ${payload.fromName}`,
    heading: `A message from ${payload.fromName}`,
    paragraphs: [
      `${payload.fromName} <${payload.fromEmail}> wrote through the contact page of ${context.siteName}:`,
      ...payload.message.split(/\r?\n\r?\n/),
    ],
    notes: ["Reply to this e-mail to answer them: it goes to the address they gave."],
  }),
};

/** The content of one queued mail. */
export function messageFor<K extends FanEmailKind>(
  kind: K,
  payload: FanEmailPayloads[K],
  context: MessageContext,
): MailContent {
  const build = BUILDERS[kind] as Builder<K>;
  return build(payload, context);
}

export const isKnownKind = (kind: string): kind is FanEmailKind => kind in BUILDERS;
