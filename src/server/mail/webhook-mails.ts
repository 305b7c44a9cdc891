import { renderMail } from "./mail-layout";

export function webhookDisabledMail(
  to: string,
  content: { publicUrl: string; organizationName: string; url: string; failingDays: number },
) {
  return renderMail(to, {
    subject: `A webhook endpoint of ${content.organizationName} was disabled`,
    heading: "Webhook endpoint disabled",
    paragraphs: [
      `Buddy could not deliver events to ${content.url} for ${content.failingDays} days in a row, so it stopped sending them there.`,
      "Open API Keys & Webhooks to see the failed deliveries, fix the endpoint, send a test event and enable it again. Events recorded while it is disabled are not sent to it.",
    ],
    action: { label: "Open API Keys & Webhooks", url: `${content.publicUrl}/settings?tab=api` },
  });
}
