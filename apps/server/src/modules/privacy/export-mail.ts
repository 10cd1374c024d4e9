import type { MailProvider } from "../../providers/mail/index.ts";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * "Your data is ready": the link opens the profile, where the signed-in owner downloads it (the
 * mail carries no key to the file). One function, so the mail templates can take it over.
 */
export async function sendExportReadyMail(
  mail: MailProvider,
  input: { to: string; name: string; profileUrl: string; expiresAt: Date },
): Promise<void> {
  const until = input.expiresAt.toUTCString();
  await mail.send({
    to: input.to,
    subject: "Your data export is ready",
    text:
      `Hello ${input.name},\n\nThe copy of your data you asked for is ready. Sign in and ` +
      `download it from your profile until ${until}:\n\n${input.profileUrl}\n\n` +
      "If you did not ask for it, change your password.\n",
    html:
      `<p>Hello ${escapeHtml(input.name)},</p><p>The copy of your data you asked for is ready. ` +
      `Sign in and download it from your profile until ${escapeHtml(until)}:</p>` +
      `<p><a href="${escapeHtml(input.profileUrl)}">${escapeHtml(input.profileUrl)}</a></p>` +
      "<p>If you did not ask for it, change your password.</p>",
  });
}
