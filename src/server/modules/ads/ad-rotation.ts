/** One partner's ads in the rotation, and how often it is drawn relative to the others. */
export type RotationPartner<T> = { organizationId: string; weight: number; ads: T[] };

/** The ads grouped by their advertiser, each group with its weight (1 when unknown). */
export function rotationOf<T extends { targetOrgId: string }>(
  ads: readonly T[],
  weights: ReadonlyMap<string, number>,
): RotationPartner<T>[] {
  const partners = new Map<string, RotationPartner<T>>();
  for (const ad of ads) {
    const partner = partners.get(ad.targetOrgId) ?? {
      organizationId: ad.targetOrgId,
      weight: weights.get(ad.targetOrgId) ?? 1,
      ads: [],
    };
    partner.ads.push(ad);
    partners.set(ad.targetOrgId, partner);
  }
  return [...partners.values()];
}

/**
 * CONTRACT §10: `limit` ads, each drawn by first drawing a partner with probability proportional
 * to its weight, then one of its ads not yet picked, uniformly. A partner is not drawn again while
 * other partners with ads remain in the round.
 */
export function pickWeighted<T>(
  partners: readonly RotationPartner<T>[],
  limit: number,
  random = Math.random,
): T[] {
  if (limit === 1) return pickOne(partners, random);
  const left = new Map(partners.map((partner) => [partner, [...partner.ads]]));
  const picked: T[] = [];
  let round = partners.filter((partner) => partner.ads.length > 0);
  while (picked.length < limit && round.length > 0) {
    const total = round.reduce((sum, partner) => sum + partner.weight, 0);
    let point = random() * total;
    let index = round.findIndex((partner) => {
      point -= partner.weight;
      return point < 0;
    });
    // Rounding may leave the point at the very end.
    if (index === -1) index = round.length - 1;
    const partner = round[index] as RotationPartner<T>;
    const ads = left.get(partner) as T[];
    const [ad] = ads.splice(Math.floor(random() * ads.length), 1);
    picked.push(ad as T);
    round = round.filter((_, i) => i !== index);
    // Everyone has had a turn: the next round is everyone with ads left.
    if (round.length === 0) round = partners.filter((candidate) => (left.get(candidate)?.length ?? 0) > 0);
  }
  return picked;
}

/**
 * The first draw of pickWeighted, the same two random numbers used the same way, without the
 * copies a round needs: the Ads API's default (`limit` 1) on every request.
 */
function pickOne<T>(partners: readonly RotationPartner<T>[], random: () => number): T[] {
  let total = 0;
  for (const partner of partners) if (partner.ads.length > 0) total += partner.weight;
  if (total === 0) return [];
  let point = random() * total;
  let chosen: RotationPartner<T> | undefined;
  for (const partner of partners) {
    if (partner.ads.length === 0) continue;
    chosen = partner;
    point -= partner.weight;
    if (point < 0) break;
  }
  const ads = (chosen as RotationPartner<T>).ads;
  return [ads[Math.floor(random() * ads.length)] as T];
}
