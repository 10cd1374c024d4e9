import { moneyText } from "../../../lib/money.ts";
import type { MailProvider } from "../../../providers/mail/index.ts";

const whenFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

export interface WithdrawalMail {
  to: string;
  itemName: string;
  refundMinor: number;
  currency: string;
  creditsTakenBack: number;
  endsPlan: boolean;
  withdrawnAt: Date;
}

/**
 * The withdrawal's confirmation, with its date and time (issue 26, item 5). One small function
 * on the mail provider, as the password reset sends, so it moves onto the shared mail templates
 * in one place.
 */
export async function sendWithdrawalConfirmation(
  mail: MailProvider,
  withdrawal: WithdrawalMail,
): Promise<void> {
  const when = whenFormat.format(withdrawal.withdrawnAt);
  const lines = [
    `You withdrew from your purchase "${withdrawal.itemName}" on ${when}.`,
    "",
    `Refund: ${moneyText(withdrawal.refundMinor, withdrawal.currency)} to the card you paid with.`,
    ...(withdrawal.creditsTakenBack > 0
      ? [`Credits taken back: ${withdrawal.creditsTakenBack.toLocaleString("en-US")}.`]
      : []),
    ...(withdrawal.endsPlan ? ["Your plan has ended and will not be charged again."] : []),
    "",
    "Your bank may take a few days to show the refund.",
  ];
  await mail.send({
    to: withdrawal.to,
    subject: "Your withdrawal is confirmed",
    text: lines.join("\n"),
  });
}
