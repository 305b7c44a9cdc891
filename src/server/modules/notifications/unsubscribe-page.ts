import type { UnsubscribeAnswer } from "@shared/notifications";
import escapeHtml from "escape-html";

/**
 * The page a person sees on opening the mail's unsubscribe link: what it turns off, and a button
 * that POSTs the same link (the GET itself changes nothing, as mail scanners open every link). No
 * script: a plain form, under the app's Content-Security-Policy.
 */
export function unsubscribePage(answer: UnsubscribeAnswer, url: string): string {
  const body = answer.subscribed
    ? `<form method="post" action="${escapeHtml(url)}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit" style="padding:10px 18px;border:0;border-radius:6px;background:#4f46e5;color:#fff;font-size:15px;font-weight:600;cursor:pointer">Unsubscribe</button>
</form>`
    : `<p style="color:#334155">You can turn it on again in Settings → Notifications.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Unsubscribe · Buddy</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"></head>
<body style="margin:0;padding:24px;background:#f1f5f9;font-family:Arial,Helvetica,sans-serif">
<main style="max-width:480px;margin:40px auto;padding:32px;background:#fff;border-radius:8px">
<p style="margin:0 0 24px;font-size:20px;font-weight:700;color:#4f46e5">Buddy</p>
<h1 style="margin:0 0 16px;font-size:20px;color:#0f172a">${escapeHtml(answer.message)}</h1>
${body}
</main></body></html>`;
}
