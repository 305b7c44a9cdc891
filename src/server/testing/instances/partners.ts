// Two organizations that are each other's Buddy, an active ad and its short link, made through the
// public API of one origin (a server, or the balancer in front of several), as users would.
import { createOrganization } from "../buddy-process";
import type { MailReceiver } from "../mail-receiver";
import { type SetUpApi, shareAdBetweenBuddies } from "../partner-setup";

/** A reader's browser: clicks and pixels from anything else may be judged a bot. */
export const browserAgent = (tag: string | number) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 r${tag}`;

export async function call<T = Record<string, unknown>>(
  origin: string,
  url: string,
  token: string,
  init: RequestInit = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${origin}${url}`, {
    ...init,
    headers: {
      ...(init.body ? { "content-type": "application/json" } : {}),
      authorization: `Bearer ${token}`,
      ...init.headers,
    },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Like call, but anything other than a 2xx fails the test with the answer. */
export async function must<T = Record<string, unknown>>(
  origin: string,
  url: string,
  token: string,
  init: RequestInit = {},
): Promise<T> {
  const { status, body } = await call<T>(origin, url, token, init);
  if (status < 200 || status > 299)
    throw new Error(`${init.method ?? "GET"} ${url}: ${status} ${JSON.stringify(body)}`);
  return body;
}

export type Partners = {
  sharerToken: string;
  partnerToken: string;
  sharerId: string;
  partnerId: string;
  collateralId: string;
  /** The sharer's short link to the partner's ad. */
  shortUrl: string;
};

/**
 * The sharer (<prefix>sharer.bench.example) shares the partner's (<prefix>partner.bench.example)
 * active ad through a short link; both have added the other as a Buddy.
 */
export async function setUpPartners(
  origin: string,
  mail: MailReceiver,
  options: { prefix?: string; publicUrl?: string } = {},
): Promise<Partners> {
  const prefix = options.prefix ?? "";
  const publicUrl = options.publicUrl ?? origin;
  const sharerToken = await createOrganization(
    origin,
    mail,
    `${prefix}sharer`,
    "An analytics tool for product teams",
    publicUrl,
  );
  const partnerToken = await createOrganization(
    origin,
    mail,
    `${prefix}partner`,
    "A help desk for support teams",
    publicUrl,
  );
  const idOf = async (token: string) =>
    (await must<{ user: { organizationId: string } }>(origin, "/api/me", token)).user.organizationId;
  const sharerId = await idOf(sharerToken);
  const partnerId = await idOf(partnerToken);
  const api: SetUpApi = (method, url, token, body) =>
    must(origin, url, token, { method, ...(body ? { body: JSON.stringify(body) } : {}) });
  const { collateral, shortUrl } = await shareAdBetweenBuddies(
    api,
    { token: sharerToken, organizationId: sharerId },
    { token: partnerToken, organizationId: partnerId },
    {
      name: "Help desk trial",
      description: "Answer every customer in one inbox",
      ctaText: "Try it",
      ctaUrl: `https://${prefix}partner.bench.example/trial`,
    },
  );
  return { sharerToken, partnerToken, sharerId, partnerId, collateralId: collateral.id, shortUrl };
}

/** The click id a redirect hands the landing page, or null. */
export function clickIdOf(response: Response): string | null {
  const location = response.headers.get("location");
  return location ? new URL(location).searchParams.get("bclickid") : null;
}
