import { renderAds } from "@shared/snippets";
import { adsJsonBody, type ServedAd } from "./ads.service";
import type { AdsQuery } from "./ads-query";

/**
 * The Ads API's body in the format asked. The JSON body
 * is text made from ads checked against the response schema when they were cached, so it is sent
 * as is (no per-request serialization).
 */
export function adsAnswer(
  ads: readonly ServedAd[],
  query: Pick<AdsQuery, "format" | "template">,
): { type: string; body: string } {
  if (query.format === "json") return { type: "application/json; charset=utf-8", body: adsJsonBody(ads) };
  return {
    type: query.format === "html" ? "text/html; charset=utf-8" : "text/plain; charset=utf-8",
    body: renderAds(
      ads.map((served) => served.ad),
      query.format,
      query.template,
    ),
  };
}

/** Ads are picked at random per request: never cached by browsers or proxies. */
export const ADS_CACHE_CONTROL = "no-store";
