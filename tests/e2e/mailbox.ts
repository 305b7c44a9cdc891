import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";

type Mail = { to: string; subject: string; text: string };

function readMails(): Mail[] {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is not set: run through playwright's global setup");
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Mail);
}

/** Waits for the newest mail to `to` that holds a link starting with `linkPrefix`, and returns the link. */
export async function waitForLink(to: string, linkPrefix: string, after = 0): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mails = readMails()
          .slice(after)
          .filter((m) => m.to === to.toLowerCase());
        link = mails
          .flatMap((m) => m.text.match(/https?:\/\/\S+/g) ?? [])
          .filter((url) => url.startsWith(linkPrefix))
          .at(-1);
        return Boolean(link);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return link as string;
}

export const mailCount = () => readMails().length;

/** A unique address per test, so parallel specs never read each other's mail. */
export const uniqueEmail = (label: string, domain = "example.com") =>
  `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@${domain}`;
