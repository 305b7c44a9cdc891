import { parse } from "fast-querystring";
import { answerFailure, type FastPath, type FastPathDeps, headerTemplate } from "../../fast-path";
import type { ApiKeyAuthenticator } from "../api-keys/api-key-authenticator";
import type { AdsService } from "./ads.service";
import { ADS_CACHE_CONTROL, adsAnswer } from "./ads-answer";
import { wellFormedAdsQuery } from "./ads-query";

const ADS_PATH = "/api/ads";

/**
 * Partners' mailings call the Ads API for every e-mail they send. A GET of `/api/ads` with a
 * well-formed query (ads-query.ts; parsed by fast-querystring, as Fastify does) and a live key already in memory is answered here
 * (fast-path.ts), from the same cached eligible ads and with the route's headers. A key seen for
 * the first time, a query the schema must judge, or no ads to serve (404) goes to the route.
 */
export function createAdsFastPath(
  deps: FastPathDeps & { apiKeys: ApiKeyAuthenticator; ads: AdsService },
): FastPath {
  const headers = headerTemplate(deps.headers, {
    "cache-control": ADS_CACHE_CONTROL,
    "content-type": "",
    "content-length": "",
  });
  return (request, response, fallback) => {
    const url = request.url;
    if (request.method !== "GET" || !url?.startsWith(ADS_PATH)) return false;
    const queryAt = url.length === ADS_PATH.length ? -1 : ADS_PATH.length;
    if (queryAt >= 0 && url[queryAt] !== "?") return false;
    const query = wellFormedAdsQuery(queryAt < 0 ? {} : parse(url.slice(queryAt + 1)));
    const key = request.headers["x-api-key"];
    const auth = query && typeof key === "string" ? deps.apiKeys.peek(key.trim()) : undefined;
    if (!query || !auth || deps.closing()) return false;
    deps.ads
      .pickAds(auth.organizationId, {
        limit: query.limit,
        includeSuggestions: query.includeSuggestions === "true",
      })
      .then(
        (ads) => {
          if (ads.length === 0) return fallback();
          const { type, body } = adsAnswer(ads, query);
          const answer = headers();
          answer["content-type"] = type;
          answer["content-length"] = String(Buffer.byteLength(body));
          response.writeHead(200, answer);
          response.end(body);
        },
        (error: unknown) => answerFailure(deps, response, error, url),
      );
    return true;
  };
}
